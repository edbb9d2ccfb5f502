import os from "node:os";
import { Worker } from "node:worker_threads";
import { type Embedder, EmbeddingError, type EmbeddingPurpose, type EmbeddingSpace } from "./embedder.js";
import type { LocalEmbedRequest, LocalWorkerReply, LocalWorkerSettings } from "./local-protocol.js";
import { chunksOf, prepareTexts } from "./prepare-texts.js";
import { USE_DIMENSIONS } from "./use-lite-windows.js";
import { DEFAULT_KEEP_ALIVE_MS, ModelLoads } from "./model-residency.js";
import { workerModuleUrl } from "../worker-url.js";

export interface LocalEmbedderOptions {
  /**
   * Most worker threads, each with its own copy of the model (150-200 MB). Threads past the
   * first start only when work waits, and stop after `idleMs` without work. Default: 2, or 1 on a one-core machine.
   */
  threads?: number;
  /** How long an extra thread may sit idle before it stops. Default 60 000. */
  idleMs?: number;
  /** How long the last thread keeps its model with nothing to do before it stops too (see DEFAULT_KEEP_ALIVE_MS). */
  keepAliveMs?: number;
  /** Default 2048 (see LOCAL_MAX_INPUT_CHARS). */
  maxInputChars?: number;
  /**
   * Most texts sent to a worker at once: a batch of more is shared among threads, and a search
   * waits behind at most one job per thread. Default 16.
   */
  jobSize?: number;
  /** The compiled worker module. Default: local-worker.js beside this module (see workerModuleUrl). */
  workerUrl?: URL;
}

const ABANDONED = "the caller stopped waiting for this embedding";

export const LOCAL_SPACE: EmbeddingSpace = { provider: "local", model: "universal-sentence-encoder-lite", dimensions: USE_DIMENSIONS };

/**
 * Texts are cut at 2048 characters; what remains is embedded in windows of 128 tokens (the
 * model ignores anything later, and 128 tokens are only about 300 characters of English)
 * whose vectors are averaged by token count. Past a few windows the mean says little more,
 * while the cost keeps growing with length; keyword search still sees the whole memory.
 */
export const LOCAL_MAX_INPUT_CHARS = 2048;

// Measured: tokens per CPU-second stay flat from 8 to 32 texts a call; a smaller budget keeps
// the WebAssembly heap, which never shrinks, small.
const WORKER_SETTINGS: LocalWorkerSettings = { maxBatchWindows: 16, batchTokenBudget: 1024 };

interface Call {
  vectors: (Float32Array | undefined)[];
  remaining: number;
  failed: boolean;
  resolve(vectors: Float32Array[]): void;
  reject(error: EmbeddingError): void;
}

interface Job {
  call: Call;
  /** Where each text's vector goes in the call's result. */
  positions: number[];
  texts: string[];
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  requestId: number;
  /** Set once the worker is on its way out (it reported a failure, or idled as a spare): it takes no more work. */
  retired: boolean;
  crash: Error | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  /** When it last finished a job (performance.now()). */
  idleSince: number;
}

/**
 * Universal Sentence Encoder lite, offline, in worker threads started on the first call. Calls
 * are split into jobs of similar-length texts; searches jump the queue ahead of documents.
 * Threads stop when idle, the last one (and with it the model's 150-200 MB) after `keepAliveMs`;
 * the next call starts one again.
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): Embedder {
  const threads = Math.max(1, options.threads ?? Math.min(2, os.availableParallelism()));
  const idleMs = options.idleMs ?? 60_000;
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const loads = new ModelLoads();
  const maxInputChars = options.maxInputChars ?? LOCAL_MAX_INPUT_CHARS;
  const jobSize = Math.max(1, options.jobSize ?? 16);
  const workerUrl = options.workerUrl ?? workerModuleUrl("local-worker", import.meta.url);
  const slots: Slot[] = [];
  const queues: Record<EmbeddingPurpose, Job[]> = { query: [], document: [] };
  let nextRequestId = 0;
  let closed = false;

  function fail(call: Call, error: EmbeddingError): void {
    if (call.failed) return;
    call.failed = true;
    call.reject(error);
  }

  function takeJob(): Job | undefined {
    for (const queue of [queues.query, queues.document]) {
      while (queue.length > 0) {
        const job = queue.shift() as Job;
        if (!job.call.failed) return job;
      }
    }
    return undefined;
  }

  function dispatch(): void {
    while (!closed) {
      const slot = slots.find((s) => !s.job && !s.retired) ?? (slots.length < threads ? undefined : null);
      if (slot === null) return;
      const job = takeJob();
      if (!job) return;
      send(slot ?? spawn(), job);
    }
  }

  function send(slot: Slot, job: Job): void {
    clearTimeout(slot.idleTimer);
    slot.job = job;
    slot.requestId = ++nextRequestId;
    slot.worker.ref();
    const request: LocalEmbedRequest = { type: "embed", id: slot.requestId, texts: job.texts };
    slot.worker.postMessage(request);
  }

  function spawn(): Slot {
    const worker = new Worker(workerUrl, { workerData: WORKER_SETTINGS });
    const slot: Slot = { worker, job: undefined, requestId: 0, retired: false, crash: undefined, idleTimer: undefined, idleSince: 0 };
    slots.push(slot);
    loads.loading();
    worker.on("message", (reply: LocalWorkerReply) => onReply(slot, reply));
    worker.on("error", (error) => {
      slot.crash = error;
    });
    worker.on("exit", (code) => onExit(slot, code));
    return slot;
  }

  function onReply(slot: Slot, reply: LocalWorkerReply): void {
    if (reply.type === "loaded") return loads.loaded();
    const job = slot.job;
    if (!job || reply.id !== slot.requestId) return;
    slot.job = undefined;
    slot.worker.unref();
    if (reply.type === "error") {
      slot.retired = true;
      if (reply.load) loads.failed(reply.message);
      fail(job.call, new EmbeddingError(reply.message, reply.retryable));
    } else if (reply.vectors.length !== job.positions.length) {
      fail(job.call, new EmbeddingError(`the local embedding worker returned ${reply.vectors.length} vectors for ${job.positions.length} texts`, false));
    } else if (!job.call.failed) {
      loads.loaded();
      job.positions.forEach((position, k) => {
        job.call.vectors[position] = reply.vectors[k];
      });
      if (--job.call.remaining === 0) job.call.resolve(job.call.vectors as Float32Array[]);
    }
    dispatch();
    if (!slot.job && !slot.retired) {
      slot.idleSince = performance.now();
      retireWhenIdle(slot);
    }
  }

  /** Stops an idle thread once it has been idle long enough: a spare after `idleMs`, the last after `keepAliveMs`. */
  function retireWhenIdle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    if (slot.job || slot.retired) return;
    const limit = slots.filter((s) => !s.retired).length > 1 ? idleMs : keepAliveMs;
    const idle = performance.now() - slot.idleSince;
    if (idle < limit) {
      slot.idleTimer = setTimeout(() => retireWhenIdle(slot), limit - idle).unref();
      return;
    }
    slot.retired = true;
    void slot.worker.terminate();
  }

  function onExit(slot: Slot, code: number): void {
    clearTimeout(slot.idleTimer);
    slots.splice(slots.indexOf(slot), 1);
    if (slots.length === 0) loads.unloaded();
    if (closed) return;
    const reason = slot.crash ? slot.crash.message : `exit code ${code}`;
    const error = new EmbeddingError(`the local embedding worker stopped (${reason})`, true, { cause: slot.crash });
    if (slot.job) fail(slot.job.call, error);
    // After a crash with no worker left, fail what waits rather than restart now: a worker that
    // dies on start would otherwise be restarted forever. The next call starts a fresh one.
    if (slots.length === 0 && !slot.retired) {
      for (let job = takeJob(); job; job = takeJob()) fail(job.call, error);
    } else {
      dispatch();
    }
  }

  return {
    space: LOCAL_SPACE,
    maxInputChars,
    residency: () => loads.residency(),
    embed(texts: readonly string[], purpose: EmbeddingPurpose, abandoned?: AbortSignal): Promise<Float32Array[]> {
      if (closed) return Promise.reject(new EmbeddingError("the local embedder was closed", false));
      if (abandoned?.aborted) return Promise.reject(new EmbeddingError(ABANDONED, false));
      let prepared: string[];
      try {
        prepared = prepareTexts(texts, maxInputChars);
      } catch (error) {
        return Promise.reject(error);
      }
      if (prepared.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        const call: Call = { vectors: new Array(prepared.length), remaining: 0, failed: false, resolve, reject };
        // Similar lengths in one job: the model pads each of its batches to the longest text.
        const order = prepared.map((_, i) => i).sort((a, b) => (prepared[a] as string).length - (prepared[b] as string).length);
        for (const positions of chunksOf(order, jobSize)) {
          call.remaining++;
          queues[purpose].push({ call, positions, texts: positions.map((i) => prepared[i] as string) });
        }
        // A failed call's jobs are skipped when a worker would take them.
        abandoned?.addEventListener("abort", () => fail(call, new EmbeddingError(ABANDONED, false)), { once: true });
        dispatch();
      });
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const error = new EmbeddingError("the local embedder was closed", false);
      for (let job = takeJob(); job; job = takeJob()) fail(job.call, error);
      for (const slot of slots) {
        clearTimeout(slot.idleTimer);
        if (slot.job) fail(slot.job.call, error);
      }
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
