/**
 * The one narrow interface memd's optional language-model features (consolidation summaries,
 * transcript distillation) use, whichever provider answers. Nothing here retries: every caller
 * has a deterministic fallback, so a failure costs a better summary, never a memory.
 */

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatOptions {
  /** The most completion tokens the model may write; also what the spend cap reserves. */
  maxTokens: number;
  /** Ask for a single JSON object (Ollama `format: "json"`, OpenAI `response_format: json_object`). */
  json: boolean;
}

export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatCompletion {
  text: string;
  /** As the provider counted it; estimated from the text where it did not say. */
  usage: ChatUsage;
}

export interface ChatModel {
  /** "ollama" or "openai". */
  readonly provider: string;
  readonly model: string;
  /** One completion; rejects with ChatError. */
  complete(messages: readonly ChatMessage[], options: ChatOptions): Promise<ChatCompletion>;
  /** Aborts calls in flight (they reject with reason "closed") and refuses new ones. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Why a call failed: no answer (unreachable, timeout), an HTTP error status, an answer that is
 * not a completion (bad-response), the model was closed, or the call would pass the daily cap.
 */
export type ChatFailure = "unreachable" | "timeout" | "http" | "bad-response" | "closed" | "over-cap";

export class ChatError extends Error {
  override readonly name = "ChatError";
  /** The HTTP status, for reason "http". */
  readonly status: number | undefined;
  /** Tokens the provider says the failed call used anyway (a completion cut off, say). */
  readonly usage: ChatUsage | undefined;
  constructor(
    message: string,
    readonly reason: ChatFailure,
    options?: ErrorOptions & { status?: number; usage?: ChatUsage },
  ) {
    super(message, options);
    this.status = options?.status;
    this.usage = options?.usage;
  }
}

/** A chat model cannot be set up as configured (no API key, a clear-text URL); the message says how to fix it. */
export class ChatSetupError extends Error {
  override readonly name = "ChatSetupError";
}

/** "ollama:llama3.2": how logs and event details name the model that wrote something. */
export function modelLabel(model: Pick<ChatModel, "provider" | "model">): string {
  return `${model.provider}:${model.model}`;
}

/** About four characters a token in English: used where a provider does not count, and to price a call before making it. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
