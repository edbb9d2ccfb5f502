import type { ModelResidency } from "./model-residency.js";

/**
 * Embedding providers sit behind this one interface. An embedding space is the triple
 * (provider, model, dimensions): vectors from different spaces are never compared.
 */
export interface EmbeddingSpace {
  /** "local" (the built-in model or its static table), "onnx", "ollama" or "openai". */
  provider: string;
  /** The model id, e.g. "universal-sentence-encoder-lite", "nomic-embed-text", "text-embedding-3-small". */
  model: string;
  dimensions: number;
}

/** Documents are stored memories; queries are searches. Some models embed them differently. */
export type EmbeddingPurpose = "document" | "query";

export interface Embedder {
  readonly space: EmbeddingSpace;
  /**
   * Embeds a batch, one unit-length vector of `space.dimensions` per text, in order, each in its
   * own buffer. Texts longer than `maxInputChars` are cut to it first. Rejects with
   * EmbeddingError on failure: a blank text, or any call after `close()`, is a non-retryable one.
   * Once `abandoned` aborts, the caller no longer waits for the vectors: an embedder may drop
   * work it has not started and reject, non-retryable (the local model does). The HTTP ones let
   * a request run once sent: Ollama may be loading the model for it, which the next call needs.
   */
  embed(texts: readonly string[], purpose: EmbeddingPurpose, abandoned?: AbortSignal): Promise<Float32Array[]>;
  /**
   * Most memories the pipeline should embed and store per call, where the default (32) does not
   * suit: the static table embeds hundreds in the time one transaction commits.
   */
  readonly batchSize?: number;
  /** The longest text, in characters (UTF-16 code units), that is embedded whole; longer texts are cut to it. */
  readonly maxInputChars: number;
  /**
   * For a model memd loads itself (the full local model, an ONNX model, the static table):
   * whether it is in memory and how its loads went. Absent where another process holds the
   * model (Ollama, OpenAI).
   */
  residency?(): ModelResidency;
  /** Releases threads, sockets and models; calls in flight reject. Safe to call twice. */
  close(): Promise<void>;
}

/** Why an embedding failed, and whether trying again later may succeed. */
export class EmbeddingError extends Error {
  override readonly name = "EmbeddingError";
  constructor(
    message: string,
    /** True for outages, timeouts and rate limits; false for bad keys, unknown models, wrong dimensions. */
    readonly retryable: boolean,
    options?: ErrorOptions & { retryAfterMs?: number },
  ) {
    super(message, options);
    this.retryAfterMs = options?.retryAfterMs;
  }
  readonly retryAfterMs: number | undefined;
}

/** An embedder cannot be set up as configured (no API key, unknown dimensions); the message says how to fix it. */
export class EmbedderSetupError extends Error {
  override readonly name = "EmbedderSetupError";
}

/** The canonical key of a space, used in logs and in the database. */
export function spaceKey(space: EmbeddingSpace): string {
  return `${space.provider}:${space.model}:${space.dimensions}`;
}
