import { deadline, failureDetail, isTimeout } from "../embed/http-failure.js";
import { ChatError } from "./chat-model.js";

export interface JsonAnswer {
  status: number;
  headers: Headers;
  /** The body parsed as JSON; undefined when it is not JSON. */
  body: unknown;
}

export interface PostJsonOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Aborts the request when the model is closed. */
  closing: AbortSignal;
  /** Names the endpoint in messages, e.g. "ollama at http://127.0.0.1:11434". Never holds a key. */
  target: string;
}

/**
 * POSTs a JSON body and reads the JSON answer within `timeoutMs` (headers and body together).
 * A request that gets no answer becomes a ChatError saying why; HTTP error statuses are
 * returned for the provider to explain.
 */
export async function postJson(url: string, payload: unknown, options: PostJsonOptions): Promise<JsonAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...options.headers },
      body: JSON.stringify(payload),
      signal: deadline(options.timeoutMs, options.closing),
    });
    text = await response.text();
  } catch (error) {
    if (options.closing.aborted) throw new ChatError(`the call to ${options.target} was cancelled: memd is stopping`, "closed", { cause: error });
    if (isTimeout(error)) throw new ChatError(`${options.target} did not answer within ${options.timeoutMs} ms`, "timeout", { cause: error });
    throw new ChatError(`${options.target} is not reachable (${failureDetail(error, options.timeoutMs)})`, "unreachable", { cause: error });
  }
  let body: unknown;
  try {
    body = text === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body };
}

/** An error message a provider put in its JSON error body (`{"error": "..."}` or `{"error": {"message": "..."}}`), cut short. */
export function errorDetail(body: unknown): string {
  const error = (body as { error?: unknown } | undefined)?.error;
  const message = typeof error === "string" ? error : (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" && message !== "" ? `: ${message.slice(0, 300)}` : "";
}

/** A non-negative whole token count from a provider's usage field, or undefined. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}
