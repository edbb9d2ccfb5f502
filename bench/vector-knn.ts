import { type BinaryIndex, createBinaryIndex, DEFAULT_SCALAR_BUDGET_BYTES } from "../daemon/src/vectors/binary-index.js";
import { codeLength, encodeVector, type Quantizer, trainQuantizer } from "../daemon/src/vectors/sign-quantizer.js";
import type { ExactVectorSource } from "../daemon/src/vectors/vector-index.js";
import { summarize } from "./latency.js";
import { createClusteredVectors } from "./vector-data.js";
import { exactNeighbours } from "./vector-exact.js";

export interface VectorKnnOptions {
  /** Numbers of stored vectors to measure at. */
  sizes: number[];
  /** 512 by default, as the local model's. */
  dimensions?: number;
  /** Timed searches per row (300 by default); the first `recallQueries` also count for recall. */
  queries?: number;
  /** Searches whose results are checked against brute force (100 by default). */
  recallQueries?: number;
  /** Called with a line of progress now and then. */
  progress?: (line: string) => void;
}

export interface VectorKnnRow {
  size: number;
  /** Which partitions hold the vectors and which the searches cover. */
  scope: string;
  /** Where the final scores come from: vectors held at a byte per dimension (the daemon's default), or exact vectors read. */
  rescoring: Rescoring["name"];
  /** Vectors in the searched partitions. */
  scanned: number;
  p50Ms: number;
  p99Ms: number;
  /** Share of the true 10 nearest (brute force, exact cosine) among the 10 returned. */
  recallAt10: number;
  /** Exact vectors each search fetched for rescoring (SQLite reads in the daemon). */
  exactPerSearch: number;
  /** Training the quantizer, encoding every vector and adding every code. */
  buildSeconds: number;
  /** Adding every stored code, as the daemon does at start-up (and holding every vector, when held). */
  loadSeconds: number;
  /** What the index holds in memory (codes, ids, id map); the exact vectors are not counted. */
  indexBytes: number;
}

export const PROJECTS = 9;
/** The daemon trains the quantizer once, on the first vectors of a space. */
export const TRAINING_SAMPLE = 1000;
const K = 10;
const WARMUP = 20;
const SEEDS = { space: 20_240_611, stored: 1, queries: 2 };

interface Rescoring {
  name: "held" | "read";
  budgetBytes: number;
}

// The daemon holds vectors up to its budget (past it, and before they are loaded, it reads them).
const RESCORINGS: readonly Rescoring[] = [
  { name: "held", budgetBytes: DEFAULT_SCALAR_BUDGET_BYTES },
  { name: "read", budgetBytes: 0 },
];

interface Layout {
  scope: string;
  partitionOf: (id: number) => string;
  searched?: readonly string[];
  inScope: (id: number) => boolean;
}

// Worst case: one partition holds everything. Usual case: a search covers its project and
// "global"; a tenth of the vectors is global, the rest spread over nine projects.
const LAYOUTS: readonly Layout[] = [
  { scope: "all in one partition", partitionOf: () => "all", inScope: () => true },
  {
    scope: `1 of ${PROJECTS} projects + global`,
    partitionOf: (id) => (id % (PROJECTS + 1) === 0 ? "global" : `project-${id % (PROJECTS + 1)}`),
    searched: ["project-1", "global"],
    inScope: (id) => id % (PROJECTS + 1) <= 1,
  },
];

/**
 * Measures the vector index on synthetic clustered embeddings: per size and layout, p50 and p99
 * latency of single searches (k = 10) one after another, recall@10 against brute force, build
 * and load time and memory. Exact vectors live in one array outside the index, as they live in
 * SQLite outside it in the daemon.
 */
export async function runVectorKnnBench(options: VectorKnnOptions): Promise<VectorKnnRow[]> {
  const dimensions = options.dimensions ?? 512;
  const queryCount = options.queries ?? 300;
  const recallCount = Math.min(queryCount, options.recallQueries ?? 100);
  const progress = options.progress ?? (() => undefined);
  const sizes = [...options.sizes].sort((a, b) => a - b);
  const largest = sizes.at(-1) ?? 0;

  progress(`drawing ${largest.toLocaleString("en-US")} vectors of ${dimensions} dimensions...`);
  const space = createClusteredVectors({ dimensions, seed: SEEDS.space });
  const stored = space.sample(largest, SEEDS.stored);
  const queryData = space.sample(queryCount, SEEDS.queries);
  const queries = Array.from({ length: queryCount }, (_, i) => queryData.subarray(i * dimensions, (i + 1) * dimensions));
  const vectorOf = (id: number) => stored.subarray(id * dimensions, (id + 1) * dimensions);
  let fetched = 0;
  const exactVectors: ExactVectorSource = (ids) => {
    fetched += ids.length;
    return new Map(ids.map((id) => [id, vectorOf(id)]));
  };

  const rows: VectorKnnRow[] = [];
  for (const size of sizes) {
    let started = performance.now();
    const quantizer = trainQuantizer(Array.from({ length: Math.min(size, TRAINING_SAMPLE) }, (_, i) => vectorOf(i)));
    const codes = encodeAll(quantizer, stored, size);
    const encodeSeconds = (performance.now() - started) / 1000;
    for (const layout of LAYOUTS) {
      const inScope = Int32Array.from({ length: size }, (_, id) => id).filter(layout.inScope);
      progress(`${size.toLocaleString("en-US")} vectors, ${layout.scope}: brute force for ${recallCount} queries...`);
      const truth = exactNeighbours(stored, dimensions, size, queries.slice(0, recallCount), K, inScope);
      for (const rescoring of RESCORINGS) {
        progress(`${size.toLocaleString("en-US")} vectors, ${layout.scope}, ${rescoring.name}: loading...`);
        started = performance.now();
        const index = createBinaryIndex({ quantizer, exactVectors, scalarBudgetBytes: rescoring.budgetBytes });
        const length = codeLength(dimensions);
        for (let id = 0; id < size; id += 1) {
          index.addCode(id, codes.subarray(id * length, (id + 1) * length), layout.partitionOf(id));
          if (rescoring.budgetBytes > 0) index.hold(id, vectorOf(id));
        }
        const loadSeconds = (performance.now() - started) / 1000;
        progress(`  loaded in ${loadSeconds.toFixed(1)} s; searching...`);
        const measured = measureSearches(index, queries, layout.searched, truth);
        fetched = 0;
        rows.push({
          size,
          scope: layout.scope,
          rescoring: rescoring.name,
          scanned: inScope.length,
          p50Ms: measured.p50Ms,
          p99Ms: measured.p99Ms,
          recallAt10: measured.recall,
          exactPerSearch: measured.exactPerSearch,
          buildSeconds: round(encodeSeconds + loadSeconds, 2),
          loadSeconds: round(loadSeconds, 2),
          indexBytes: index.memoryBytes(),
        });
      }
    }
  }
  return rows;

  function measureSearches(
    index: BinaryIndex,
    all: readonly Float32Array[],
    partitions: readonly string[] | undefined,
    truth: readonly Int32Array[],
  ): { p50Ms: number; p99Ms: number; recall: number; exactPerSearch: number } {
    for (let i = 0; i < WARMUP; i += 1) index.search(all[i % all.length] as Float32Array, { k: K, partitions });
    fetched = 0;
    const durations: number[] = [];
    let found = 0;
    let possible = 0;
    all.forEach((query, i) => {
      const started = performance.now();
      const hits = index.search(query, { k: K, partitions });
      durations.push(performance.now() - started);
      const expected = truth[i];
      if (expected !== undefined) {
        const wanted = new Set(expected);
        found += hits.filter((hit) => wanted.has(hit.id)).length;
        possible += expected.length;
      }
    });
    const latency = summarize(durations);
    return {
      p50Ms: latency.p50Ms,
      p99Ms: latency.p99Ms,
      recall: possible > 0 ? round(found / possible, 4) : 1,
      exactPerSearch: round(fetched / all.length, 1),
    };
  }
}

/** Codes of the first `count` vectors, one after another, as the daemon stores them. */
function encodeAll(quantizer: Quantizer, vectors: Float32Array, count: number): Uint8Array {
  const dimensions = quantizer.dimensions;
  const length = codeLength(dimensions);
  const codes = new Uint8Array(count * length);
  for (let id = 0; id < count; id += 1) {
    codes.set(encodeVector(quantizer, vectors.subarray(id * dimensions, (id + 1) * dimensions)), id * length);
  }
  return codes;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
