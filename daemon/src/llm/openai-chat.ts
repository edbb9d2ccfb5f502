import { isLoopbackHost } from "../config/config.js";
import { type ChatCompletion, ChatError, type ChatMessage, type ChatModel, type ChatOptions, ChatSetupError, type ChatUsage, estimateTokens } from "./chat-model.js";
import { errorDetail, postJson, tokenCount } from "./post-json.js";

export interface OpenAiChatOptions {
  /** OPENAI_API_KEY. Sent only to `baseUrl`, never logged. */
  apiKey: string;
  /** Default https://api.openai.com; a trailing /v1 is accepted. Plain http only to loopback (tests, local proxies). */
  baseUrl: string;
  /** e.g. gpt-4o-mini. */
  model: string;
  /** Per call. Default 60 000. */
  timeoutMs?: number;
}

/** Chat completions from OpenAI's POST /v1/chat/completions (or a compatible server). */
export function createOpenAiChat(options: OpenAiChatOptions): ChatModel {
  if (!options.apiKey.trim()) throw new ChatSetupError("the OpenAI chat model needs an API key: set OPENAI_API_KEY");
  const baseUrl = checkedBaseUrl(options.baseUrl);
  const model = options.model;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const closing = new AbortController();
  const target = `OpenAI at ${baseUrl}`;

  return {
    provider: "openai",
    model,
    async complete(messages: readonly ChatMessage[], chat: ChatOptions): Promise<ChatCompletion> {
      if (closing.signal.aborted) throw new ChatError("the openai chat model was closed", "closed");
      const answer = await postJson(
        `${baseUrl}/v1/chat/completions`,
        {
          model,
          messages,
          // max_completion_tokens replaced max_tokens, which reasoning models refuse. No temperature
          // either: reasoning models accept only the default.
          max_completion_tokens: chat.maxTokens,
          ...(chat.json ? { response_format: { type: "json_object" } } : {}),
        },
        { headers: { authorization: `Bearer ${options.apiKey}` }, timeoutMs, closing: closing.signal, target },
      );
      if (answer.status < 200 || answer.status > 299) throw openAiFailure(answer.status, answer.body, target, model);
      const body = answer.body as { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[]; usage?: Record<string, unknown> } | undefined;
      const choice = body?.choices?.[0];
      const text = choice?.message?.content;
      const usage: ChatUsage = {
        inputTokens: tokenCount(body?.usage?.prompt_tokens) ?? estimateTokens(messages.map((m) => m.content).join("\n")),
        outputTokens: tokenCount(body?.usage?.completion_tokens) ?? (typeof text === "string" ? estimateTokens(text) : 0),
      };
      if (typeof text !== "string") throw new ChatError(`${target} answered without a message (model ${model})`, "bad-response", { usage });
      // A completion cut at the token limit is half a JSON object: useless, but paid for.
      if (choice?.finish_reason === "length") {
        throw new ChatError(`${target} stopped at the ${chat.maxTokens}-token limit (model ${model})`, "bad-response", { usage });
      }
      return { text, usage };
    },
    async close(): Promise<void> {
      closing.abort();
    },
  };
}

/** Refuses to send the API key in clear text over the network. */
function checkedBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ChatSetupError(`the OpenAI base URL "${value}" is not a URL`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    throw new ChatSetupError(`the OpenAI base URL ${url.origin} must use https, so that the API key is not sent in clear text`);
  }
  return url.href.replace(/\/+$/, "").replace(/\/v1$/, "");
}

function openAiFailure(status: number, body: unknown, target: string, model: string): ChatError {
  const where = `${status} from ${target}`;
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (status === 401) return new ChatError(`OPENAI_API_KEY is invalid or revoked (${where})`, "http", { status });
  if (status === 429 && code === "insufficient_quota") {
    return new ChatError(`the OpenAI account has no quota left (${where})`, "http", { status });
  }
  if (status === 404) return new ChatError(`OpenAI does not offer the model ${model} to this key (${where})${errorDetail(body)}`, "http", { status });
  return new ChatError(`OpenAI refused the call (${where})${errorDetail(body)}`, "http", { status });
}
