/**
 * Messages between the local embedder (main thread) and its worker threads. The main thread
 * sends one request at a time to a worker; the worker answers it before taking another.
 */

/** Given to each worker as workerData. */
export interface LocalWorkerSettings {
  /** Most windows in one model call. */
  maxBatchWindows: number;
  /** Most padded tokens in one model call. */
  batchTokenBudget: number;
}

export interface LocalEmbedRequest {
  type: "embed";
  id: number;
  /** Already clipped and checked non-blank. */
  texts: string[];
}

export type LocalWorkerReply =
  /** Sent once, when the model is loaded, whether or not a request waits. */
  | { type: "loaded" }
  /** One unit vector per text, in order; each buffer is transferred, not copied. */
  | { type: "vectors"; id: number; vectors: Float32Array[] }
  /** The worker ends after this; `load` when the model did not load (tried again soon), not a failure of the texts. */
  | { type: "error"; id: number; message: string; retryable: boolean; load: boolean };
