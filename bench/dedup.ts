import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createLocalEmbedder } from "../daemon/src/embed/local-embedder.js";
import { embeddingText } from "../daemon/src/embed/embedding-text.js";
import { cosineSimilarity } from "../daemon/src/lifecycle/cosine.js";
import { DEFAULT_DEDUP_CONFIG, sameIdentifiers } from "../daemon/src/lifecycle/dedup.js";
import { formatTable, numericColumns } from "./table.js";

const USAGE = `usage: node dist/bench/dedup.js [--pairs FILE] [--verbose]

Measures dedup by meaning on labelled pairs of memories (bench/data/dedup-pairs.jsonl): pairs a
person would call the same memory saved twice, and pairs that differ only in what they name (a
path, a command, a port, an error code). Both sides are embedded with memd's local model, as the
daemon embeds them; a pair merges when its similarity is above the dedup threshold (${DEFAULT_DEDUP_CONFIG.similarityThreshold}),
and, with memd's rule, when each side also names every identifier of the other.
--verbose lists every pair with its similarity and verdicts.`;

const DEFAULT_PAIRS = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../bench/data/dedup-pairs.jsonl");

interface Pair {
  kind: string;
  a: string;
  b: string;
  /** Whether a person would call the two the same memory. */
  duplicate: boolean;
  note: string;
}

/** A rule deciding whether two memories this similar are one. */
type MergeRule = (pair: Pair, similarity: number) => boolean;

const RULES: readonly { name: string; merges: MergeRule }[] = [
  { name: "similarity only", merges: (_pair, similarity) => similarity > DEFAULT_DEDUP_CONFIG.similarityThreshold },
  { name: "similarity + same identifiers (memd)", merges: (pair, similarity) => similarity > DEFAULT_DEDUP_CONFIG.similarityThreshold && sameIdentifiers(pair.a, pair.b) },
];

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { pairs: { type: "string", default: DEFAULT_PAIRS }, verbose: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } } });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const pairs = readFileSync(values.pairs, "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Pair);
  const embedder = createLocalEmbedder({ threads: 1 });
  const memory = (content: string) => embeddingText({ content, problem: "", solution: "", concepts: [], files: [] });
  const vectors = await embedder.embed(pairs.flatMap((pair) => [memory(pair.a), memory(pair.b)]), "document");
  await embedder.close();
  const similarities = pairs.map((_, i) => cosineSimilarity(vectors[2 * i] as Float32Array, vectors[2 * i + 1] as Float32Array));

  const duplicates = pairs.filter((pair) => pair.duplicate).length;
  const rows = RULES.map(({ name, merges }) => {
    const merged = pairs.filter((pair, i) => merges(pair, similarities[i] as number));
    const right = merged.filter((pair) => pair.duplicate).length;
    return [name, `${right}/${duplicates}`, `${merged.length - right}/${pairs.length - duplicates}`, merged.length === 0 ? "-" : (right / merged.length).toFixed(2), (right / duplicates).toFixed(2)];
  });
  process.stdout.write(`${pairs.length} labelled pairs (${duplicates} duplicates), local model, threshold ${DEFAULT_DEDUP_CONFIG.similarityThreshold}\n\n`);
  process.stdout.write(`${formatTable(numericColumns(["rule", "duplicates merged", "distinct pairs merged", "precision", "recall"]), rows)}\n`);
  if (values.verbose) {
    const listed = pairs.map((pair, i) => [
      `${pair.duplicate ? "same" : "distinct"}: ${pair.kind}, ${pair.note}`,
      (similarities[i] as number).toFixed(3),
      ...RULES.map(({ merges }) => (merges(pair, similarities[i] as number) ? "merge" : "keep")),
    ]);
    process.stdout.write(`\n${formatTable(numericColumns(["pair", "similarity", ...RULES.map((rule) => rule.name)]), listed)}\n`);
  }
  return 0;
}

process.exitCode = await main();
