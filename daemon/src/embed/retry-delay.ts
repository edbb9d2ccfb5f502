import { backoffMs } from "../backoff.js";

const BASE_MS = 1000;
const MAX_RETRYABLE_MS = 5 * 60_000;
/** A permanent failure (bad key, unknown model) may be fixed by the user; look again later, rarely. */
const PERMANENT_MS = 10 * 60_000;

/** How long to wait before embedding a failed batch again: exponential, capped, honouring Retry-After. */
export function retryDelayMs(attempts: number, retryable: boolean, retryAfterMs?: number): number {
  if (!retryable) return PERMANENT_MS;
  const exponential = backoffMs(attempts + 1, BASE_MS, MAX_RETRYABLE_MS);
  return Math.max(exponential, Math.min(retryAfterMs ?? 0, MAX_RETRYABLE_MS));
}
