/** The only module that reads process.env: everything else receives a validated Config. */
export interface MemdEnv {
  home?: string;
  listen?: string;
  logLevel?: string;
  maxContentBytes?: string;
  userHome?: string;
  embedder?: string;
  ollamaHost?: string;
  ollamaModel?: string;
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  openaiModel?: string;
  onnxModel?: string;
  hfEndpoint?: string;
  halfLives?: string;
  claudeHome?: string;
  llm?: string;
  llmModel?: string;
  llmDailyTokens?: string;
  vault?: string;
  hubUrl?: string;
  injectionsKeepDays?: string;
  injectionsKeepRows?: string;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): MemdEnv {
  return {
    home: env.MEMD_HOME,
    listen: env.MEMD_LISTEN,
    logLevel: env.MEMD_LOG_LEVEL,
    maxContentBytes: env.MEMD_MAX_CONTENT_BYTES,
    userHome: env.HOME,
    embedder: env.MEMD_EMBEDDER,
    ollamaHost: env.OLLAMA_HOST,
    ollamaModel: env.MEMD_OLLAMA_MODEL,
    openaiApiKey: env.OPENAI_API_KEY,
    openaiBaseUrl: env.MEMD_OPENAI_BASE_URL,
    openaiModel: env.MEMD_OPENAI_MODEL,
    onnxModel: env.MEMD_ONNX_MODEL,
    hfEndpoint: env.MEMD_HF_ENDPOINT,
    halfLives: env.MEMD_HALF_LIVES,
    claudeHome: env.MEMD_CLAUDE_HOME,
    llm: env.MEMD_LLM,
    llmModel: env.MEMD_LLM_MODEL,
    llmDailyTokens: env.MEMD_LLM_DAILY_TOKENS,
    vault: env.MEMD_VAULT,
    hubUrl: env.MEMD_HUB_URL,
    injectionsKeepDays: env.MEMD_INJECTIONS_KEEP_DAYS,
    injectionsKeepRows: env.MEMD_INJECTIONS_KEEP_ROWS,
  };
}
