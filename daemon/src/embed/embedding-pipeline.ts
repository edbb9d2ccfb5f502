import type { Logger } from "../logger.js";
import { isDatabaseLocked } from "../store/database-locked.js";
import type { EmbeddingJob, SpaceRecord, StoredVector, VectorStore } from "../store/vector-store.js";
import { type Embedder, EmbeddingError } from "./embedder.js";
import { embeddingText, textHash } from "./embedding-text.js";
import { retryDelayMs } from "./retry-delay.js";
import { WakeableSleep } from "../wakeable-sleep.js";

/** Where finished vectors go besides the database: the in-memory index of the space. */
export interface VectorSink {
  /** The compact code stored beside the vector, from which the index is rebuilt at start-up. */
  encode(vector: Float32Array): Uint8Array;
  add(memorySeq: number, vector: Float32Array, partition: string): void;
}

export interface PipelineOptions {
  store: VectorStore;
  embedder: Embedder;
  space: SpaceRecord;
  sink: VectorSink;
  logger: Logger;
  now: () => number;
  /** Most memories per model call. */
  batchSize: number;
  /** How long a small batch waits for company before it is embedded anyway. */
  batchDelayMs: number;
  /** Called when a building space has embedded every memory. */
  onSpaceComplete?: (space: SpaceRecord) => void;
  /** Called after each batch is stored. */
  onBatchStored?: () => void;
  /** Called with the batch's memories once their vectors are searchable, before anyone waiting for them is told. */
  onVectorsStored?: (memorySeqs: readonly number[]) => void;
}

export type PipelineState = "idle" | "ready" | "failing";

/** The longest wait for a failed job's retry: the clock may be a test's, which moves faster than timers. */
const RETRY_CHECK_MS = 5000;
/** How long the pipeline waits before writing again when another process holds the write lock. */
const LOCKED_RETRY_MS = 1000;

/**
 * Drains the durable embedding queue of one space: forms batches by size and by a short
 * delay, embeds them off the main thread (the embedder's business), stores vectors and codes
 * in one transaction, and retries failures with backoff. Nothing is lost on a crash: a job
 * leaves the queue only in the transaction that stores its vector.
 */
export class EmbeddingPipeline {
  private stopped = false;
  private readonly pause = new WakeableSleep();
  private loop: Promise<void> | null = null;
  private readonly waiters = new Map<number, Set<(ready: boolean) => void>>();
  private currentState: PipelineState = "idle";
  private error = "";

  constructor(private readonly options: PipelineOptions) {}

  get state(): PipelineState {
    return this.currentState;
  }

  get lastError(): string {
    return this.error;
  }

  start(): void {
    this.loop ??= this.run().catch((error: unknown) => {
      this.options.logger.error({ err: error }, "embedding pipeline stopped unexpectedly");
    });
  }

  /** Tells the pipeline that new jobs may be queued. */
  wake(): void {
    this.pause.wake();
  }

  /** Resolves true once the memory's vector is stored, false if `timeoutMs` passes first or the pipeline stops. */
  waitFor(memorySeq: number, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const set = this.waiters.get(memorySeq) ?? new Set();
      this.waiters.set(memorySeq, set);
      const done = (ready: boolean) => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0) this.waiters.delete(memorySeq);
        resolve(ready);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      set.add(done);
      this.wake();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    for (const done of [...this.waiters.values()].flatMap((set) => [...set])) done(false);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.step();
      } catch (error) {
        if (!isDatabaseLocked(error)) throw error;
        // Another process holds the write lock: the jobs stay queued, and are tried again once it may be gone.
        this.options.logger.warn({ retryInMs: LOCKED_RETRY_MS }, "embedding paused: the database is locked by another process");
        await this.sleep(LOCKED_RETRY_MS);
      }
    }
  }

  /** Embeds and stores one batch, or waits for one. */
  private async step(): Promise<void> {
    const { store, space, batchSize, batchDelayMs, now } = this.options;
    let jobs = store.dueJobs(space.id, now(), batchSize);
    if (jobs.length > 0 && jobs.length < batchSize) {
      // A lone Save is usually followed by others: give them a moment to share the call.
      await this.sleep(batchDelayMs);
      if (this.stopped) return;
      jobs = store.dueJobs(space.id, now(), batchSize);
    }
    if (jobs.length === 0) {
      this.checkComplete();
      const due = store.nextDueAt(space.id);
      // New jobs wake the pipeline (the store's change feed, see EmbeddingRuntime); only a failed job's retry has a time.
      await this.sleep(due === null ? Infinity : Math.max(10, Math.min(RETRY_CHECK_MS, due - now())));
      return;
    }
    await this.embedBatch(jobs);
  }

  /** A failing follow-up must not turn a stored batch into a failed one. */
  private afterStored(memorySeqs: readonly number[]): void {
    try {
      this.options.onVectorsStored?.(memorySeqs);
    } catch (error) {
      this.options.logger.error({ err: error, count: memorySeqs.length }, "processing newly embedded memories failed");
    }
  }

  private async embedBatch(jobs: EmbeddingJob[]): Promise<void> {
    const { store, embedder, space, sink, logger, now } = this.options;
    const texts = jobs.map((job) => embeddingText(job.memory));
    try {
      const vectors = await embedder.embed(texts, "document");
      const stored: StoredVector[] = jobs.map((job, i) => {
        const vector = vectors[i];
        if (!vector || vector.length !== space.dimensions) {
          throw new EmbeddingError(
            `the embedder returned ${vector?.length ?? "no"} dimensions for space ${space.provider}:${space.model}, which has ${space.dimensions}`,
            false,
          );
        }
        return { spaceId: space.id, memorySeq: job.memorySeq, textHash: textHash(texts[i] as string), vector, code: sink.encode(vector) };
      });
      store.completeJobs(jobs, stored);
      for (const [i, job] of jobs.entries()) sink.add(job.memorySeq, stored[i]?.vector as Float32Array, job.memory.project);
      this.afterStored(jobs.map((job) => job.memorySeq));
      for (const job of jobs) for (const done of [...(this.waiters.get(job.memorySeq) ?? [])]) done(true);
      this.currentState = "ready";
      this.error = "";
      this.options.onBatchStored?.();
      logger.debug({ count: jobs.length, space: space.id }, "embedded batch");
    } catch (error) {
      // Not the embedder's failure: nothing was stored, and the jobs stay as they were.
      if (isDatabaseLocked(error)) throw error;
      const retryable = error instanceof EmbeddingError ? error.retryable : true;
      const retryAfter = error instanceof EmbeddingError ? error.retryAfterMs : undefined;
      const attempts = Math.max(...jobs.map((j) => j.attempts));
      const delay = retryDelayMs(attempts, retryable, retryAfter);
      const message = error instanceof Error ? error.message : String(error);
      store.failJobs(jobs, message, now() + delay);
      this.currentState = "failing";
      this.error = message;
      logger.warn({ err: error, count: jobs.length, retryInMs: delay, retryable }, "embedding failed; will retry");
    }
  }

  private checkComplete(): void {
    const { store, space, onSpaceComplete } = this.options;
    if (space.state === "building" && store.pendingJobs(space.id) === 0) {
      space.state = "active";
      onSpaceComplete?.(space);
    }
  }

  private sleep(ms: number): Promise<void> {
    return this.pause.sleep(ms);
  }
}
