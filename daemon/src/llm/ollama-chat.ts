import { type ChatCompletion, ChatError, type ChatMessage, type ChatModel, type ChatOptions, estimateTokens } from "./chat-model.js";
import { errorDetail, postJson, tokenCount } from "./post-json.js";

export interface OllamaChatOptions {
  /** Where Ollama listens (OLLAMA_HOST, already with a scheme). */
  host: string;
  /** e.g. llama3.2. */
  model: string;
  /**
   * Per call. A local model on a laptop writes a few dozen tokens a second and the first call
   * loads it into memory, so this is generous. Default 120 000.
   */
  timeoutMs?: number;
}

/**
 * Chat completions from Ollama's POST /api/chat, non-streaming. The Ollama API is spoken with
 * plain fetch (as the OpenAI provider does) so that both share one failure path; the `ollama`
 * package would add nothing but its habit of printing error bodies to stdout.
 */
export function createOllamaChat(options: OllamaChatOptions): ChatModel {
  const host = options.host.replace(/\/+$/, "");
  const model = options.model;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const closing = new AbortController();
  const target = `ollama at ${host}`;

  return {
    provider: "ollama",
    model,
    async complete(messages: readonly ChatMessage[], chat: ChatOptions): Promise<ChatCompletion> {
      if (closing.signal.aborted) throw new ChatError("the ollama chat model was closed", "closed");
      const answer = await postJson(
        `${host}/api/chat`,
        {
          model,
          messages,
          stream: false,
          ...(chat.json ? { format: "json" } : {}),
          // Temperature 0: a summary or an extraction should be the same on every run.
          options: { num_predict: chat.maxTokens, temperature: 0 },
        },
        { timeoutMs, closing: closing.signal, target },
      );
      if (answer.status === 404) {
        throw new ChatError(`${target} does not have the model ${model}: run \`ollama pull ${model}\``, "http", { status: 404 });
      }
      if (answer.status < 200 || answer.status > 299) {
        throw new ChatError(`${target} answered ${answer.status}${errorDetail(answer.body)}`, "http", { status: answer.status });
      }
      const body = answer.body as { message?: { content?: unknown }; prompt_eval_count?: unknown; eval_count?: unknown } | undefined;
      const text = body?.message?.content;
      if (typeof text !== "string") throw new ChatError(`${target} answered without a message (model ${model})`, "bad-response");
      return {
        text,
        usage: {
          // Ollama leaves prompt_eval_count out when the prompt was cached from the last call.
          inputTokens: tokenCount(body?.prompt_eval_count) ?? estimateTokens(messages.map((m) => m.content).join("\n")),
          outputTokens: tokenCount(body?.eval_count) ?? estimateTokens(text),
        },
      };
    },
    async close(): Promise<void> {
      closing.abort();
    },
  };
}
