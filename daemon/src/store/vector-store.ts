import type { EmbeddingSpace } from "../embed/embedder.js";
import type { MemoryRecord } from "../memory/memory.js";

/** A recorded embedding space and where it stands. */
export interface SpaceRecord extends EmbeddingSpace {
  id: number;
  /** building: vectors are being computed; active: serves searches; retired: replaced. */
  state: "building" | "active" | "retired";
  createdAt: number;
  activatedAt: number | null;
  /** Parameters of the vector index's quantizer, persisted so codes stay comparable. */
  quantizer: Uint8Array | null;
}

/** One memory waiting to be embedded into one space. */
export interface EmbeddingJob {
  spaceId: number;
  memorySeq: number;
  /** Changes whenever the memory is queued again, so a stale completion cannot clear a newer job. */
  token: number;
  attempts: number;
  memory: MemoryRecord;
}

export interface StoredVector {
  spaceId: number;
  memorySeq: number;
  /** Hash of the text that was embedded, to tell a stale vector from a current one. */
  textHash: string;
  vector: Float32Array;
  /** The index's compact code for the vector. */
  code: Uint8Array;
}

export interface StoredCode {
  memorySeq: number;
  project: string;
  code: Uint8Array;
}

/**
 * The persistent side of embeddings: spaces, the durable queue of memories to embed, and the
 * vectors. Jobs are queued by the database itself in the same transaction as the write that
 * made them necessary, so a crash can never lose one.
 */
export interface VectorStore {
  spaces(): SpaceRecord[];
  /**
   * Records a space on first sight and queues every memory for it. The first space ever is
   * active at once; a later one is building until its queue drains.
   */
  ensureSpace(space: EmbeddingSpace, now: number): SpaceRecord;
  /** Makes a building space the active one and retires (and clears) the previous one. */
  activateSpace(spaceId: number, now: number): void;
  setQuantizer(spaceId: number, quantizer: Uint8Array): void;
  /** Jobs due at `now` for a space, oldest first. */
  dueJobs(spaceId: number, now: number, limit: number): EmbeddingJob[];
  /** When the next job of a space falls due, or null if it has none. */
  nextDueAt(spaceId: number): number | null;
  pendingJobs(spaceId: number): number;
  /**
   * Stores vectors and removes their jobs, in one transaction. A job queued again while it was
   * being embedded (its memory changed) stays queued. Vectors of memories deleted meanwhile are dropped.
   */
  completeJobs(jobs: readonly EmbeddingJob[], vectors: readonly StoredVector[]): void;
  /** Records a failed attempt and when to try again. */
  failJobs(jobs: readonly EmbeddingJob[], error: string, retryAt: number): void;
  /** Queues every memory for a space again (a full reindex). Returns how many. */
  requeueAll(spaceId: number): number;
  /** Exact vectors for rescoring. Rows of the wrong size are skipped and re-queued. */
  vectors(spaceId: number, memorySeqs: readonly number[]): Map<number, Float32Array>;
  /** Every code of a space, for building the in-memory index at start-up, in pages. */
  codes(spaceId: number): Iterable<StoredCode>;
  /** Every stored vector of a space, a page at a time (no read stays open between pages). */
  storedVectors(spaceId: number): Iterable<{ memorySeq: number; vector: Float32Array }[]>;
  vectorCount(spaceId: number): number;
  /** The first stored vectors of a space, to train the index's quantizer on. */
  sampleVectors(spaceId: number, limit: number): Float32Array[];
  /** Recomputes every stored code of a space (after its quantizer changed). */
  recode(spaceId: number, encode: (vector: Float32Array) => Uint8Array): void;
  /** The memories behind index hits, in the given order; missing ones are left out. */
  memoriesBySeq(memorySeqs: readonly number[]): { seq: number; memory: MemoryRecord }[];
}
