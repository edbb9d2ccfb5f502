import { UnavailableError } from "../errors.js";
import type { Logger } from "../logger.js";
import { type MemoryFilter, matchesFilter } from "../memory/memory-filter.js";
import type { ScoredMemory } from "../store/store.js";
import type { SpaceRecord, VectorStore } from "../store/vector-store.js";
import type { ExactVectorSource, VectorIndex } from "../vectors/vector-index.js";
import { type Embedder, spaceKey } from "./embedder.js";
import { EmbeddingPipeline } from "./embedding-pipeline.js";
import type { EmbeddingStatus, ReindexProgress } from "./embedding-status.js";

/** A vector index that can also persist and reload its compact codes. */
export interface SpaceIndex extends VectorIndex {
  encode(vector: Float32Array): Uint8Array;
  addCode(id: number, code: Uint8Array, partition: string): void;
}

export type SpaceIndexFactory = (space: SpaceRecord, exact: ExactVectorSource) => SpaceIndex;

export interface EmbeddingRuntimeOptions {
  vectorStore: VectorStore;
  embedder: Embedder;
  /** Why this embedder was chosen, for Health and Stats. */
  reason: string;
  createIndex: SpaceIndexFactory;
  /** An embedder for an older space, to keep serving its vectors while a new space builds; null if none can be had. */
  embedderForSpace?: (space: SpaceRecord) => Promise<Embedder | null>;
  logger: Logger;
  now: () => number;
  batchSize?: number;
  batchDelayMs?: number;
}

interface ServingSpace {
  space: SpaceRecord;
  embedder: Embedder;
  index: SpaceIndex;
}

const PROGRESS_INTERVAL_MS = 250;
const OVERSAMPLING = 3;

/**
 * Everything about embeddings in the running daemon: the active space and its in-memory
 * index, the pipeline that drains the queue, vector search, and reindexing. While a new space
 * builds, an older complete space keeps answering searches if its embedder can still run.
 */
export class EmbeddingRuntime {
  private readonly current: ServingSpace;
  private previous: ServingSpace | null = null;
  private readonly pipeline: EmbeddingPipeline;
  private closed = false;

  private constructor(private readonly options: EmbeddingRuntimeOptions, current: ServingSpace) {
    this.current = current;
    this.pipeline = new EmbeddingPipeline({
      store: options.vectorStore,
      embedder: options.embedder,
      space: current.space,
      sink: current.index,
      logger: options.logger,
      now: options.now,
      batchSize: options.batchSize ?? 32,
      batchDelayMs: options.batchDelayMs ?? 20,
      onSpaceComplete: (space) => this.activate(space),
    });
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
    return runtime;
  }

  status(): EmbeddingStatus {
    return {
      space: this.current.space,
      reason: this.options.reason,
      state: this.pipeline.state,
      queueDepth: this.options.vectorStore.pendingJobs(this.current.space.id),
      lastError: this.pipeline.lastError,
      reindexing: this.current.space.state === "building",
    };
  }

  /** Call after any write that may have queued embedding jobs. */
  notify(): void {
    this.pipeline.notify();
  }

  waitForVector(memorySeq: number, timeoutMs: number): Promise<boolean> {
    return this.pipeline.waitFor(memorySeq, timeoutMs);
  }

  /** Memories most similar in meaning to the query, best first; score is cosine similarity. */
  async search(query: string, filter: MemoryFilter, limit: number): Promise<ScoredMemory[]> {
    const serving = this.previous ?? this.current;
    let vector: Float32Array | undefined;
    try {
      [vector] = await serving.embedder.embed([query], "query");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new UnavailableError(`vector search needs the ${spaceKey(serving.space)} embedder, which failed: ${reason}`, { cause: error });
    }
    if (!vector || vector.length !== serving.index.dimensions) {
      throw new UnavailableError(
        `the query embedding has ${vector?.length ?? 0} dimensions but the ${spaceKey(serving.space)} index has ${serving.index.dimensions}: run 'memctl reindex'`,
      );
    }
    for (let k = limit * OVERSAMPLING + 10; ; k *= 4) {
      const hits = serving.index.search(vector, { k, partitions: filter.projects });
      const similarity = new Map(hits.map((hit) => [hit.id, hit.similarity]));
      const found = this.options.vectorStore
        .memoriesBySeq(hits.map((hit) => hit.id))
        .filter(({ memory }) => matchesFilter(memory, filter))
        .map(({ seq, memory }) => ({ memory, score: similarity.get(seq) ?? 0 }));
      if (found.length >= limit || hits.length < k) return found.slice(0, limit);
    }
  }

  /** Re-embeds every memory in the current space, reporting progress until the queue is empty. */
  async *reindexVectors(signal: AbortSignal): AsyncIterable<ReindexProgress> {
    const { vectorStore } = this.options;
    const total = vectorStore.requeueAll(this.current.space.id);
    this.notify();
    for (;;) {
      const pending = vectorStore.pendingJobs(this.current.space.id);
      yield { done: total - pending, total, lastError: this.pipeline.lastError };
      if (pending === 0 || signal.aborted || this.closed) return;
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_INTERVAL_MS));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pipeline.stop();
    await this.options.embedder.close();
    await this.previous?.embedder.close();
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

async function loadIndex(options: EmbeddingRuntimeOptions, space: SpaceRecord): Promise<SpaceIndex> {
  const index = options.createIndex(space, (ids) => options.vectorStore.vectors(space.id, ids));
  let loaded = 0;
  for (const { memorySeq, project, code } of options.vectorStore.codes(space.id)) {
    index.addCode(memorySeq, code, project);
    // Yield now and then, so that a large index loads without stalling other requests.
    if (++loaded % 20_000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return index;
}
