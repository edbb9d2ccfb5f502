import { UnavailableError } from "../errors.js";
import { within } from "../within.js";

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

/** The vector candidates a search waited for, or none and why. */
export interface VectorOutcome {
  hits: { seq: number; score: number }[];
  skipped: string;
}

/** The vector candidates, or none and why when the embedder failed (UnavailableError). */
export function vectorsArrived(embedding: Promise<VectorOutcome["hits"]>): Promise<VectorOutcome> {
  return embedding.then(
    (hits): VectorOutcome => ({ hits, skipped: "" }),
    (error: unknown): VectorOutcome => {
      if (error instanceof UnavailableError) return { hits: [], skipped: error.message };
      throw error;
    },
  );
}

/**
 * Timers run before the event loop reads sockets: a reply that came in while the search itself
 * kept the loop busy is read within this, rather than lost to a wait that ran out meanwhile.
 */
const REPLY_GRACE_MS = 5;

/**
 * The vector candidates, or none once `waitMs` since the embedding's request are over (what
 * `elapsedMs` already took counts), in which case the search they would need is called off.
 */
export function waitForVectors(arrived: Promise<VectorOutcome>, waitMs: number | undefined, elapsedMs: number, abandon: AbortController): Promise<VectorOutcome> {
  if (waitMs === undefined) return arrived;
  return within(arrived, Math.max(REPLY_GRACE_MS, waitMs - elapsedMs), () => {
    abandon.abort();
    return { hits: [], skipped: `the query's embedding did not arrive within ${Math.round(waitMs)} ms` };
  });
}
