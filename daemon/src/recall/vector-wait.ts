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

/**
 * What `work` settles to, or what `late` gives (or throws) once `waitMs` pass first. `work`
 * settling afterwards changes nothing, and its failure then is not left unhandled.
 */
export async function within<T>(work: Promise<T>, waitMs: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, waitMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
