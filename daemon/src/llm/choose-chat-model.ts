import type { LlmConfig } from "../config/config.js";
import type { LlmSpend } from "../store/store.js";
import type { ChatModel } from "./chat-model.js";
import { createOllamaChat } from "./ollama-chat.js";
import { createOpenAiChat } from "./openai-chat.js";
import { type CappedChatModel, withSpendCap } from "./spend-cap.js";

/**
 * The configured chat model behind the daily spend cap, or null when MEMD_LLM is none (the
 * default): then nothing is ever sent to a model. Throws ChatSetupError when the settings
 * cannot work (a clear-text OpenAI URL).
 */
export function chooseChatModel(config: LlmConfig, ledger: LlmSpend, now: () => number): CappedChatModel | null {
  let model: ChatModel;
  switch (config.choice) {
    case "none":
      return null;
    case "ollama":
      model = createOllamaChat({ host: config.ollamaHost, model: config.model });
      break;
    case "openai":
      model = createOpenAiChat({ apiKey: config.openaiApiKey ?? "", baseUrl: config.openaiBaseUrl, model: config.model });
      break;
  }
  return withSpendCap(model, { ledger, now, dailyTokens: config.dailyTokens });
}
