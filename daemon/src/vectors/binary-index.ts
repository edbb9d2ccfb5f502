import { querySignWords } from "./code-words.js";
import { KernelArena } from "./kernel-arena.js";
import { nearestByDistance } from "./nearest-by-distance.js";
import { PartitionCodes } from "./partition-codes.js";
import { buildQueryTable, tableSum } from "./query-table.js";
import { ScalarVectors } from "./scalar-vectors.js";
import { SeqTable } from "../seq-table.js";
import { checkDimensions, codeLength, encodeVector, type Quantizer, queryWeights } from "./sign-quantizer.js";
import { TopScores } from "./top-scores.js";
import {
  type ExactVectorSource,
  type VectorHit,
  type VectorIndex,
  type VectorSearchOptions,
  VectorDimensionError,
} from "./vector-index.js";

/**
 * How much work a search does at each of its three passes. The defaults keep recall@10 at
 * or above 0.98 on clustered data from 10k to 1M vectors (see bench/vectors.ts).
 */
export interface SearchTuning {
  /**
   * Codes scored against the full-precision query: max(minCandidates, candidatesPerRoot * sqrt(n))
   * of the n in scope. When n is larger, the Hamming distance of the 192-bit prefixes picks them.
   */
  minCandidates: number;
  candidatesPerRoot: number;
  /**
   * Exact vectors fetched and rescored: max(minRerank, rerankPerResult * k, rerankPerRoot * sqrt(n)).
   * The more vectors, the more of them fall within the estimate's error of the k-th best.
   */
  minRerank: number;
  rerankPerResult: number;
  rerankPerRoot: number;
}

/**
 * With vectors held, every candidate is scored almost exactly, so the Hamming pass's choice is
 * what limits recall. Half the candidates set before they were held (16 per root, at least
 * 2,000) halve the search and keep recall@10 at 0.985-0.998 from 10k to 1M vectors, held or
 * read (npm run bench:vectors; it was 0.990-0.998).
 */
export const DEFAULT_TUNING: SearchTuning = {
  minCandidates: 1000,
  candidatesPerRoot: 8,
  minRerank: 200,
  rerankPerResult: 10,
  rerankPerRoot: 0.4,
};

export interface BinaryIndexOptions {
  quantizer: Quantizer;
  exactVectors: ExactVectorSource;
  tuning?: Partial<SearchTuning>;
  /** Memory for vectors held at one byte per dimension for rescoring (see ScalarVectors). */
  scalarBudgetBytes?: number;
}

/** Enough for 300k 768-dimensional or 400k 512-dimensional vectors; past it, rescoring reads the database. */
export const DEFAULT_SCALAR_BUDGET_BYTES = 256 * 2 ** 20;

export interface BinaryIndex extends VectorIndex {
  readonly quantizer: Quantizer;
  /** Bytes held in memory: codes and ids exactly, the id tables' overflow maps estimated. */
  memoryBytes(): number;
}


/**
 * A vector index of sign codes, searched in three passes: Hamming distance over the 192-bit
 * prefixes of every code in scope, a query-table score of the full codes of the best of those,
 * and exact cosine similarity for the best of those, on vectors fetched from `exactVectors`.
 * Holds 4 bytes per 32 dimensions plus about 50 per vector (factor, id and id map): 115 MiB
 * for a million 512-dimensional vectors, which themselves stay outside.
 */
export function createBinaryIndex(options: BinaryIndexOptions): BinaryIndex {
  const { quantizer, exactVectors } = options;
  const tuning: SearchTuning = { ...DEFAULT_TUNING, ...options.tuning };
  const dimensions = quantizer.dimensions;
  const partitions: PartitionCodes[] = [];
  const partitionsByName = new Map<string, number>();
  // Each id's partition and slot in it, by id (a memory seq): 8 bytes an id, where a Map of
  // packed locations cost about 40 (5 MB of the daemon's heap at 100k memories).
  const partitionOf = new SeqTable();
  const slotOf = new SeqTable();
  let count = 0;
  const scalars = new ScalarVectors(dimensions, options.scalarBudgetBytes ?? DEFAULT_SCALAR_BUDGET_BYTES);
  const arena = new KernelArena();

  function partitionIndex(name: string): number {
    let index = partitionsByName.get(name);
    if (index === undefined) {
      index = partitions.length;
      partitions.push(new PartitionCodes(name, dimensions, arena));
      partitionsByName.set(name, index);
    }
    return index;
  }

  function remove(id: number): void {
    scalars.delete(id);
    const index = partitionOf.get(id);
    if (index === undefined) return;
    const slot = slotOf.get(id) as number;
    partitionOf.delete(id);
    slotOf.delete(id);
    count -= 1;
    const moved = (partitions[index] as PartitionCodes).removeAt(slot);
    if (moved !== undefined) slotOf.set(moved, slot);
  }

  function addCode(id: number, code: Uint8Array, partition: string): void {
    if (code.length !== codeLength(dimensions)) {
      throw new VectorDimensionError(
        `code of ${code.length} bytes does not fit an embedding space of ${dimensions} dimensions (${codeLength(dimensions)} bytes)`,
      );
    }
    // A new code means a new vector: a copy held for the old one no longer applies.
    scalars.delete(id);
    const index = partitionIndex(partition);
    const current = partitionOf.get(id);
    if (current === index) {
      (partitions[index] as PartitionCodes).write(slotOf.get(id) as number, code);
      return;
    }
    if (current !== undefined) remove(id);
    slotOf.set(id, (partitions[index] as PartitionCodes).append(id, code));
    partitionOf.set(id, index);
    count += 1;
  }

  function search(query: Float32Array, searchOptions: VectorSearchOptions): VectorHit[] {
    checkDimensions(query.length, dimensions, "query");
    const scope = scopeOf(searchOptions.partitions);
    const total = scope.reduce((sum, part) => sum + part.count, 0);
    const k = Math.min(Math.floor(searchOptions.k), total);
    if (!(k >= 1)) return [];
    const rerank = Math.max(
      k,
      tuning.minRerank,
      Math.ceil(tuning.rerankPerResult * k),
      Math.ceil(tuning.rerankPerRoot * Math.sqrt(total)),
    );
    const wanted = Math.max(rerank, tuning.minCandidates, Math.ceil(tuning.candidatesPerRoot * Math.sqrt(total)));
    const starts = new Int32Array(scope.length);
    for (let p = 1; p < scope.length; p += 1) {
      starts[p] = (starts[p - 1] as number) + (scope[p - 1] as PartitionCodes).count;
    }
    const partOf = (position: number): number => lastAtMost(starts, position);
    const idAt = (position: number): number => {
      const p = partOf(position);
      return (scope[p] as PartitionCodes).ids[position - (starts[p] as number)] as number;
    };
    const { accept } = searchOptions;
    const accepted = accept === undefined ? undefined : (position: number) => accept(idAt(position));

    const candidates = total > wanted ? prefixCandidates(query, scope, starts, total, wanted, accepted) : allPositions(total, accepted);
    // Plain loops from here: iterating a typed array, or a callback per candidate, allocated
    // more per search than everything else together.
    const ids = new Float64Array(candidates.length);
    for (let i = 0; i < candidates.length; i += 1) ids[i] = idAt(candidates[i] as number);
    // Held at one byte per dimension, every candidate is scored almost exactly, which is cheaper
    // than estimating them all from their codes and reading the best few.
    const similarities = scalars.similarities(ids, query, true);
    if (similarities !== undefined) return best(ids, similarities, k);
    const shortlist = candidates.length > rerank ? Array.from(bestByTable(query, scope, starts, candidates, rerank), idAt) : Array.from(ids);
    return rescore(query, shortlist, k);
  }

  function scopeOf(names: readonly string[] | undefined): PartitionCodes[] {
    if (names === undefined) return partitions.filter((part) => part.count > 0);
    const scope = new Set<PartitionCodes>();
    for (const name of names) {
      const index = partitionsByName.get(name);
      if (index !== undefined) scope.add(partitions[index] as PartitionCodes);
    }
    return [...scope].filter((part) => part.count > 0);
  }

  function prefixCandidates(
    query: Float32Array,
    scope: readonly PartitionCodes[],
    starts: Int32Array,
    total: number,
    wanted: number,
    accepted: ((position: number) => boolean) | undefined,
  ): Int32Array {
    const signs = querySignWords(quantizer, query);
    const prefixWords = (scope[0] as PartitionCodes).prefixWords;
    const histogramLength = prefixWords * 32 + 1;
    // The Hamming pass runs in the kernels' memory, which holds the prefixes: the query, the
    // distances, their histogram and the positions gathered from them go there too, in blocks
    // taken before any view of the memory (taking one may replace its buffer) and freed again
    // once they are read.
    const scratch = [signs.byteLength, total, histogramLength * 4, total * 4];
    const [queryAt, distancesAt, histogramAt, positionsAt] = scratch.map((bytes) => arena.alloc(bytes)) as [number, number, number, number];
    try {
      const { buffer } = arena;
      new Int32Array(buffer, queryAt, signs.length).set(signs);
      const histogram = new Int32Array(buffer, histogramAt, histogramLength).fill(0);
      scope.forEach((part, p) => {
        arena.kernels.hamming(part.prefixAt, part.count, prefixWords, queryAt, distancesAt + (starts[p] as number), histogramAt);
      });
      const gather = (after: number, upTo: number): Int32Array =>
        new Int32Array(buffer, positionsAt, arena.kernels.gather(distancesAt, total, after, upTo, positionsAt));
      return nearestByDistance(new Uint8Array(buffer, distancesAt, total), total, histogram, wanted, accepted, gather);
    } finally {
      [queryAt, distancesAt, histogramAt, positionsAt].forEach((at, i) => arena.free(at, scratch[i] as number));
    }
  }

  function bestByTable(
    query: Float32Array,
    scope: readonly PartitionCodes[],
    starts: Int32Array,
    candidates: Int32Array,
    keep: number,
  ): Int32Array {
    const first = scope[0] as PartitionCodes;
    const table = buildQueryTable(queryWeights(quantizer, query), first.prefixWords + first.tailWords);
    const best = new TopScores(keep);
    for (const position of candidates) {
      const p = lastAtMost(starts, position);
      const part = scope[p] as PartitionCodes;
      const slot = position - (starts[p] as number);
      const sum =
        tableSum(table, part.prefix, slot * part.prefixWords, part.prefixWords, 0) +
        tableSum(table, part.tail, slot * part.tailWords, part.tailWords, part.prefixWords * 4);
      best.push(sum * (part.factors[slot] as number), position);
    }
    return best.itemsBestFirst();
  }

  /**
   * Cosine similarity for the shortlist, when some of it is not held: the rest is read, and so
   * are the best held ones, so that the order at the cut is exact (at a million vectors the
   * nearest lie closer together than a byte per dimension tells apart: recall@10 0.977 -> 0.99).
   * What is read is held from then on, within the budget.
   */
  function rescore(query: Float32Array, ids: readonly number[], k: number): VectorHit[] {
    const similarities = scalars.similarities(ids, query) as Float64Array;
    const read = new Set(ids.filter((_, i) => Number.isNaN(similarities[i])));
    if (read.size > 0) for (const hit of best(ids, similarities, 2 * k)) read.add(hit.id);
    const vectors = read.size > 0 ? exactVectors([...read]) : new Map<number, Float32Array>();
    const queryNorm = Math.sqrt(dot(query, query));
    ids.forEach((id, i) => {
      const vector = vectors.get(id);
      if (vector === undefined || vector.length !== dimensions) return;
      const norms = queryNorm * Math.sqrt(dot(vector, vector));
      similarities[i] = norms > 0 ? Math.min(1, Math.max(-1, dot(query, vector) / norms)) : 0;
      if (partitionOf.get(id) !== undefined) scalars.set(id, vector);
    });
    return best(ids, similarities, k);
  }

  return {
    quantizer,
    dimensions,
    get size() {
      return count;
    },
    encode: (vector) => encodeVector(quantizer, vector),
    add: (id, vector, partition) => {
      addCode(id, encodeVector(quantizer, vector), partition);
      scalars.set(id, vector);
    },
    // A copy already held came with the vector's code (add) or a read after it: never older than this one.
    hold: (id, vector) => {
      if (partitionOf.get(id) !== undefined && !scalars.has(id)) scalars.set(id, vector);
    },
    addCode,
    remove,
    search,
    memoryBytes: () =>
      partitions.reduce((sum, part) => sum + part.byteLength, 0) + arena.byteLength + partitionOf.byteLength + slotOf.byteLength + scalars.byteLength,
  };
}

/** The k best-scoring ids (NaN scores left out), best first, equal scores by lowest id. */
function best(ids: ArrayLike<number>, similarities: Float64Array, k: number): VectorHit[] {
  const top = new TopScores(k);
  for (let i = 0; i < similarities.length; i += 1) {
    const similarity = similarities[i] as number;
    if (!Number.isNaN(similarity)) top.push(similarity, i);
  }
  // The heap keeps the first seen of equal scores; everything tied with the k-th best is taken
  // again, so that the cut falls by id (the same text saved twice has the same vector).
  const cut = top.size < k ? Number.NEGATIVE_INFINITY : top.floor;
  const hits: VectorHit[] = [];
  for (let i = 0; i < similarities.length; i += 1) {
    const similarity = similarities[i] as number;
    if (similarity >= cut) hits.push({ id: ids[i] as number, similarity });
  }
  return hits.sort((a, b) => b.similarity - a.similarity || a.id - b.id).slice(0, k);
}

function allPositions(total: number, accepted: ((position: number) => boolean) | undefined): Int32Array {
  const positions = new Int32Array(total);
  let count = 0;
  for (let position = 0; position < total; position += 1) {
    if (accepted === undefined || accepted(position)) {
      positions[count] = position;
      count += 1;
    }
  }
  return positions.subarray(0, count);
}

/** The index of the last element of an ascending array that is at most `value` (the array starts at 0). */
function lastAtMost(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((sorted[mid] as number) <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
