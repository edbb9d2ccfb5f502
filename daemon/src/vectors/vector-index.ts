/**
 * An approximate nearest-neighbour index over one embedding space, held in memory.
 * Implementations keep compact codes in memory, and for rescoring either a one-byte-per-
 * dimension copy of a vector (within a memory budget) or the exact vector fetched through
 * `ExactVectorSource`, so memory use stays bounded at a million vectors.
 */
export interface VectorIndex {
  readonly dimensions: number;
  /** How many vectors the index holds. */
  readonly size: number;
  /**
   * The compact code `addCode` takes. Persist it beside the vector: the index can then be
   * rebuilt at start-up from codes alone, without reading every exact vector.
   */
  encode(vector: Float32Array): Uint8Array;
  /** Adds a vector (unit length) for a memory, replacing any earlier one for the same id. */
  add(id: number, vector: Float32Array, partition: string): void;
  /** Adds a code from `encode` (of an index with the same quantizer), replacing any earlier one for the same id. */
  addCode(id: number, code: Uint8Array, partition: string): void;
  /** Keeps a compact copy of an indexed memory's stored vector, so rescoring it needs no read. */
  hold(id: number, vector: Float32Array): void;
  /** Forgets a memory; unknown ids are ignored. */
  remove(id: number): void;
  /** The k most similar memories by cosine similarity, best first (exact, or within about 1e-3 from a held copy). */
  search(query: Float32Array, options: VectorSearchOptions): VectorHit[];
}

export interface VectorSearchOptions {
  k: number;
  /** Only these partitions (projects); undefined means all. */
  partitions?: readonly string[];
  /** Only ids for which this returns true (e.g. active memories). */
  accept?: (id: number) => boolean;
}

export interface VectorHit {
  id: number;
  /** Cosine similarity, -1..1: exact, or within about 1e-3 when computed on a held copy. */
  similarity: number;
}

/**
 * Where exact vectors come from for rescoring (the database in the daemon). Ids it leaves out
 * (deleted meanwhile, or unreadable) are dropped from the results.
 */
export type ExactVectorSource = (ids: readonly number[]) => Map<number, Float32Array>;

/** A vector or code whose size does not fit the index's embedding space. */
export class VectorDimensionError extends Error {
  override readonly name = "VectorDimensionError";
}
