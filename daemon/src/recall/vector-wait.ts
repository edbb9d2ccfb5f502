/**
 * How long a search waits for its query's embedding before it goes on without vectors. Long
 * enough for Ollama to load a small embedding model after idling (1-2 s on a laptop); short
 * enough that an agent's tool call does not hang on an embedder that will not answer.
 */
export const DEFAULT_VECTOR_WAIT_MS = 3000;
/** What a search needs after the vector arrives: well above its p99 at 100k memories (npm run bench -- --only hybrid). */
export const AFTER_VECTORS_MS = 30;

/**
 * The wait for a call whose deadline (the client's Connect timeout) is `deadlineMs` away, or
 * undefined without one: the default, or less, so the answer still arrives in time.
 */
export function vectorWaitMs(deadlineMs: number | undefined): number {
  if (deadlineMs === undefined) return DEFAULT_VECTOR_WAIT_MS;
  return Math.max(0, Math.min(DEFAULT_VECTOR_WAIT_MS, deadlineMs - AFTER_VECTORS_MS));
}
