import { setImmediate as nextTurn } from "node:timers/promises";
import { UnavailableError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { MemoryFilter } from "../memory/memory-filter.js";
import type { ChangeFeed, ScoredMemory } from "../store/store.js";
import type { SpaceRecord, VectorStore } from "../store/vector-store.js";
import type { ExactVectorSource, VectorHit, VectorIndex } from "../vectors/vector-index.js";
import { type Embedder, spaceKey } from "./embedder.js";
import { EmbeddingPipeline } from "./embedding-pipeline.js";
import type { EmbeddingStatus, ReindexProgress } from "./embedding-status.js";

/** Makes the in-memory index of a space; `quantizer` is the space's trained parameters, if any. */
export type SpaceIndexFactory = (space: SpaceRecord, exact: ExactVectorSource) => VectorIndex;

/** Trains a quantizer from sample vectors and returns its bytes, to be persisted with the space. */
export type QuantizerTrainer = (sample: readonly Float32Array[]) => Uint8Array;

export interface EmbeddingRuntimeOptions {
  vectorStore: VectorStore;
  /** Wakes the pipeline after each commit that queued embedding jobs, whichever write queued them. */
  changes: Pick<ChangeFeed, "onQueued">;
  /** A test of a filter on a memory by seq, as the store is now (MemorySearch.admits): searches filter while they choose. */
  admits: (filter: MemoryFilter) => (memorySeq: number) => boolean;
  embedder: Embedder;
  /** Why this embedder was chosen, for Health and Stats. */
  reason: string;
  createIndex: SpaceIndexFactory;
  /** Codes start untrained; once a space holds `trainAt` vectors they are retrained once on them. */
  trainQuantizer: QuantizerTrainer;
  trainAt?: number;
  /** An embedder for an older space, to keep serving its vectors while a new space builds; null if none can be had. */
  embedderForSpace?: (space: SpaceRecord) => Promise<Embedder | null>;
  logger: Logger;
  now: () => number;
  batchSize?: number;
  batchDelayMs?: number;
  /** Called with newly embedded memories of the serving space (not while a new space builds). */
  onVectorsStored?: (memorySeqs: readonly number[], runtime: EmbeddingRuntime) => void;
}

interface ServingSpace {
  space: SpaceRecord;
  embedder: Embedder;
  index: VectorIndex;
}


const PROGRESS_INTERVAL_MS = 250;
const TRAIN_AT = 1000;

/**
 * Everything about embeddings in the running daemon: the active space and its in-memory
 * index, the pipeline that drains the queue, vector search, and reindexing. While a new space
 * builds, an older complete space keeps answering searches if its embedder can still run.
 */
export class EmbeddingRuntime {
  private readonly current: ServingSpace;
  private previous: ServingSpace | null = null;
  private readonly pipeline: EmbeddingPipeline;
  private readonly unsubscribe: () => void;
  private closed = false;

  private constructor(private readonly options: EmbeddingRuntimeOptions, current: ServingSpace) {
    this.current = current;
    this.pipeline = new EmbeddingPipeline({
      store: options.vectorStore,
      embedder: options.embedder,
      space: current.space,
      // The index may be replaced (after training), so the sink always looks up the current one.
      sink: {
        encode: (vector) => this.current.index.encode(vector),
        add: (seq, vector, partition) => this.current.index.add(seq, vector, partition),
      },
      logger: options.logger,
      now: options.now,
      batchSize: options.batchSize ?? options.embedder.batchSize ?? 32,
      batchDelayMs: options.batchDelayMs ?? 20,
      onSpaceComplete: (space) => this.activate(space),
      onBatchStored: () => this.trainIfDue(),
      onVectorsStored: (seqs) => {
        if (this.current.space.state !== "building") options.onVectorsStored?.(seqs, this);
      },
    });
    this.unsubscribe = options.changes.onQueued("embedding", () => this.pipeline.wake());
  }

  /** Records the embedder's space, loads the stored codes into memory and starts draining the queue. */
  static async start(options: EmbeddingRuntimeOptions): Promise<EmbeddingRuntime> {
    const { vectorStore, embedder, now, logger } = options;
    const space = vectorStore.ensureSpace(embedder.space, now());
    const index = await loadIndex(options, space);
    const runtime = new EmbeddingRuntime(options, { space, embedder, index });
    if (space.state === "building") await runtime.servePreviousSpace();
    logger.info(
      { space: spaceKey(space), state: space.state, vectors: index.size, pending: vectorStore.pendingJobs(space.id), reason: options.reason },
      "embedding space ready",
    );
    runtime.pipeline.start();
    void runtime.holdVectors(runtime.current.index, space);
    return runtime;
  }

  /**
   * Hands every stored vector to the index to hold compactly (see VectorIndex.hold), in steps
   * between requests, so that rescoring stops reading the database once this is done.
   */
  private async holdVectors(index: VectorIndex, space: SpaceRecord): Promise<void> {
    try {
      // A page is held in the tick that read it: a vector stored meanwhile cannot be overwritten by an older one.
      for (const page of this.options.vectorStore.storedVectors(space.id)) {
        for (const { memorySeq, vector } of page) index.hold(memorySeq, vector);
        await nextTurn();
        if (this.closed || this.current.index !== index) return;
      }
    } catch (error) {
      this.options.logger.warn({ err: error, space: spaceKey(space) }, "could not hold vectors in memory; rescoring reads them from the database");
    }
  }

  status(): EmbeddingStatus {
    return {
      space: this.current.space,
      reason: this.options.reason,
      state: this.pipeline.state,
      queueDepth: this.options.vectorStore.pendingJobs(this.current.space.id),
      lastError: this.pipeline.lastError,
      reindexing: this.current.space.state === "building",
      model: this.options.embedder.residency?.() ?? null,
    };
  }

  waitForVector(memorySeq: number, timeoutMs: number): Promise<boolean> {
    return this.pipeline.waitFor(memorySeq, timeoutMs);
  }

  /**
   * Memories most similar in meaning to the query, best first; score is cosine similarity.
   * `embedded` hears how long embedding the query took.
   */
  async search(query: string, filter: MemoryFilter, limit: number, embedded?: (ms: number) => void): Promise<ScoredMemory[]> {
    const { serving, vector } = await this.embedQuery(query, embedded);
    return this.read(serving.index.search(vector, { k: limit, partitions: filter.projects, accept: this.options.admits(filter) }));
  }

  /**
   * The memories (by seq) nearest the query among those `accept` lets through, best first,
   * without reading them: for callers that rank on what they already hold.
   */
  async nearest(
    query: string,
    accept: (memorySeq: number) => boolean,
    limit: number,
    embedded?: (ms: number) => void,
    abandoned?: AbortSignal,
  ): Promise<{ seq: number; score: number }[]> {
    const { serving, vector } = await this.embedQuery(query, embedded, abandoned);
    // The caller stopped waiting and went on without vectors: the search would go unread.
    if (abandoned?.aborted) return [];
    // Filtered while candidates are chosen: filtering the k best afterwards searched again,
    // four times as wide, whenever more than a few of them were archived or superseded.
    return serving.index.search(vector, { k: limit, accept }).map((hit) => ({ seq: hit.id, score: hit.similarity }));
  }

  private async embedQuery(query: string, embedded?: (ms: number) => void, abandoned?: AbortSignal): Promise<{ serving: ServingSpace; vector: Float32Array }> {
    const serving = this.previous ?? this.current;
    let vector: Float32Array | undefined;
    const started = performance.now();
    try {
      [vector] = await serving.embedder.embed([query], "query", abandoned);
      embedded?.(performance.now() - started);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new UnavailableError(`vector search needs the ${spaceKey(serving.space)} embedder, which failed: ${reason}`, { cause: error });
    }
    if (!vector || vector.length !== serving.index.dimensions) {
      throw new UnavailableError(
        `the query embedding has ${vector?.length ?? 0} dimensions but the ${spaceKey(serving.space)} index has ${serving.index.dimensions}: run 'memctl reindex'`,
      );
    }
    return { serving, vector };
  }

  /** Drops deleted memories from the in-memory indexes (their vectors went with their rows). */
  forget(memorySeqs: readonly number[]): void {
    for (const seq of memorySeqs) {
      this.current.index.remove(seq);
      this.previous?.index.remove(seq);
    }
  }

  /** The stored vectors of these memories in the current space; memories not embedded yet are absent. */
  vectorsOf(memorySeqs: readonly number[]): Map<number, Float32Array> {
    return this.options.vectorStore.vectors(this.current.space.id, memorySeqs);
  }

  /**
   * Memories near the centroid of the given memories' vectors (spreading activation), best
   * first, leaving out the given ones. Memories without a vector yet are ignored.
   */
  similarTo(memorySeqs: readonly number[], filter: MemoryFilter, limit: number): ScoredMemory[] {
    const serving = this.previous ?? this.current;
    const vectors = [...this.options.vectorStore.vectors(serving.space.id, memorySeqs).values()];
    if (vectors.length === 0) return [];
    const centroid = new Float32Array(serving.index.dimensions);
    for (const vector of vectors) for (let i = 0; i < centroid.length; i++) centroid[i] = (centroid[i] as number) + (vector[i] as number);
    const norm = Math.hypot(...centroid) || 1;
    for (let i = 0; i < centroid.length; i++) centroid[i] = (centroid[i] as number) / norm;
    const exclude = new Set(memorySeqs);
    const admitted = this.options.admits(filter);
    return this.read(serving.index.search(centroid, { k: limit, partitions: filter.projects, accept: (seq) => !exclude.has(seq) && admitted(seq) }));
  }

  /** The memories of index hits, read right after the search that admitted them, in its order. */
  private read(hits: readonly VectorHit[]): ScoredMemory[] {
    const similarity = new Map(hits.map((hit) => [hit.id, hit.similarity]));
    return this.options.vectorStore.memoriesBySeq(hits.map((hit) => hit.id)).map(({ seq, memory }) => ({ memory, score: similarity.get(seq) ?? 0 }));
  }

  /** Re-embeds every memory in the current space, reporting progress until the queue is empty. */
  async *reindexVectors(signal: AbortSignal): AsyncIterable<ReindexProgress> {
    const { vectorStore } = this.options;
    const total = vectorStore.requeueAll(this.current.space.id);
    for (;;) {
      const pending = vectorStore.pendingJobs(this.current.space.id);
      yield { done: total - pending, total, lastError: this.pipeline.lastError };
      if (pending === 0 || signal.aborted || this.closed) return;
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_INTERVAL_MS));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    await this.pipeline.stop();
    await this.options.embedder.close();
    await this.previous?.embedder.close();
  }

  /**
   * Sign codes work better centred on the space's mean, which needs vectors to learn from:
   * once enough are stored, train once, persist the quantizer, recode and reload the index.
   */
  private trainIfDue(): void {
    const { vectorStore, logger } = this.options;
    const space = this.current.space;
    const trainAt = this.options.trainAt ?? TRAIN_AT;
    if (space.quantizer !== null || vectorStore.vectorCount(space.id) < trainAt) return;
    const quantizer = this.options.trainQuantizer(vectorStore.sampleVectors(space.id, trainAt));
    vectorStore.setQuantizer(space.id, quantizer);
    space.quantizer = quantizer;
    const index = this.options.createIndex(space, exactSource(this.options, space));
    vectorStore.recode(space.id, (vector) => index.encode(vector));
    for (const { memorySeq, project, code } of vectorStore.codes(space.id)) index.addCode(memorySeq, code, project);
    this.current.index = index;
    void this.holdVectors(index, space);
    logger.info({ space: spaceKey(space), vectors: index.size }, "trained the vector quantizer and rebuilt the index");
  }

  private async servePreviousSpace(): Promise<void> {
    const old = this.options.vectorStore.spaces().find((s) => s.state === "active");
    if (!old || !this.options.embedderForSpace) return;
    const embedder = await this.options.embedderForSpace(old).catch(() => null);
    if (!embedder) {
      this.options.logger.warn({ space: spaceKey(old) }, "the previous embedder is unavailable; serving the new space while it builds");
      return;
    }
    this.previous = { space: old, embedder, index: await loadIndex(this.options, old) };
  }

  private activate(space: SpaceRecord): void {
    this.options.vectorStore.activateSpace(space.id, this.options.now());
    const previous = this.previous;
    this.previous = null;
    void previous?.embedder.close();
    this.options.logger.info({ space: spaceKey(space) }, "new embedding space complete and active");
  }
}

/** Exact vectors for rescoring; a row found unreadable is re-queued by the store, which wakes the pipeline. */
function exactSource(options: EmbeddingRuntimeOptions, space: SpaceRecord): ExactVectorSource {
  return (ids) => options.vectorStore.vectors(space.id, ids);
}

async function loadIndex(options: EmbeddingRuntimeOptions, space: SpaceRecord): Promise<VectorIndex> {
  const index = options.createIndex(space, exactSource(options, space));
  let loaded = 0;
  for (const { memorySeq, project, code } of options.vectorStore.codes(space.id)) {
    index.addCode(memorySeq, code, project);
    // Yield now and then, so that a large index loads without stalling other requests.
    if (++loaded % 20_000 === 0) await nextTurn();
  }
  return index;
}
