import { Ollama } from "ollama";
import { EmbeddingError } from "./embedder.js";
import { deadline, unreachable } from "./http-failure.js";

/**
 * An ollama client whose every request has a deadline and stops when `closing` aborts (the
 * library sets neither). Error bodies that are not JSON are wrapped as Ollama's own
 * `{"error": ...}`, because the library prints non-JSON error bodies to stdout.
 */
export function createOllamaClient(host: string, timeoutMs: number, closing: AbortSignal): Ollama {
  const fetchWithDeadline: typeof fetch = async (input, init) => {
    const response = await fetch(input, { ...init, signal: deadline(timeoutMs, closing) });
    if (response.ok || response.headers.get("content-type")?.includes("application/json")) return response;
    const text = await response.text();
    return Response.json({ error: text || response.statusText }, { status: response.status, statusText: response.statusText });
  };
  return new Ollama({ host, fetch: fetchWithDeadline });
}

/** Explains a failed call to Ollama as an EmbeddingError: outages retry, missing models do not. */
export function ollamaFailure(error: unknown, host: string, model: string, timeoutMs: number, closing: AbortSignal): EmbeddingError {
  if (error instanceof EmbeddingError) return error;
  if (closing.aborted) return new EmbeddingError("the ollama embedder was closed", false, { cause: error });
  const status = (error as { status_code?: unknown }).status_code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status !== "number") return unreachable(error, `ollama at ${host}`, timeoutMs);
  if (status === 404 || /model .*not found/i.test(message)) {
    return new EmbeddingError(`ollama at ${host} does not have the model ${model}: run \`ollama pull ${model}\``, false, { cause: error });
  }
  const retryable = status >= 500 || status === 408 || status === 429;
  return new EmbeddingError(`ollama at ${host} answered ${status}: ${message}`, retryable, { cause: error });
}
