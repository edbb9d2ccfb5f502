import { EmbeddingError } from "./embedder.js";

/**
 * Turns a failed fetch (no HTTP answer at all) into a retryable EmbeddingError that says what
 * happened. `target` names the endpoint, e.g. "ollama at http://127.0.0.1:11434".
 */
export function unreachable(error: unknown, target: string, timeoutMs: number): EmbeddingError {
  if (isTimeout(error)) return new EmbeddingError(`${target} did not answer within ${timeoutMs} ms`, true, { cause: error });
  return new EmbeddingError(`${target} is not reachable (${failureDetail(error, timeoutMs)})`, true, { cause: error });
}

/** A few words on why a fetch got no answer: "connection refused", "no answer within 400 ms", "ENOTFOUND". */
export function failureDetail(error: unknown, timeoutMs: number): string {
  if (isTimeout(error)) return `no answer within ${timeoutMs} ms`;
  const code = errorCode(error);
  if (code === "ECONNREFUSED") return "connection refused";
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** True when a fetch failed because its deadline passed (AbortSignal.timeout). */
export function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}

/** The system error code (ECONNREFUSED, ENOTFOUND, ...) somewhere in an error's cause chain. */
function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const MAX_RETRY_AFTER_MS = 60 * 60_000;

/**
 * How long the server asked us to wait, from `retry-after-ms` (OpenAI's) or `Retry-After`
 * (seconds or an HTTP date), capped at an hour; undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.min(Math.ceil(ms), MAX_RETRY_AFTER_MS);
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.min(Math.ceil(Number(value) * 1000), MAX_RETRY_AFTER_MS);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

/**
 * A signal that aborts after `timeoutMs` or when `closing` aborts, whichever comes first, so that
 * `close()` does not wait for requests in flight.
 */
export function deadline(timeoutMs: number, closing: AbortSignal): AbortSignal {
  return AbortSignal.any([AbortSignal.timeout(timeoutMs), closing]);
}
