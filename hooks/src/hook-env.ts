import { memdEndpoint, type MemdEndpoint } from "../../clients/transport/endpoint.js";

/** The budget per event: a prompt's hook (UserPromptSubmit, Gemini's BeforeAgent, Copilot's userPromptSubmitted, OpenCode's chat.message) blocks the prompt, so it gets the least. */
export const PROMPT_BUDGET_MS = 300;
const DEFAULT_BUDGET_MS = 1000;
/** The prompt events, flattened as in isPromptEvent. */
const PROMPT_EVENTS = new Set(["userpromptsubmit", "beforeagent", "userpromptsubmitted", "chat.message"]);

/** "user-prompt-submit" and "UserPromptSubmit" alike. */
function isPromptEvent(event: string): boolean {
  return PROMPT_EVENTS.has(event.replace(/[-_]/g, "").toLowerCase());
}

export interface HookEnv {
  endpoint: MemdEndpoint;
  budgetMs: number;
}

/** The only place the hook reads process.env. */
export function readHookEnv(event: string, env: NodeJS.ProcessEnv = process.env): HookEnv {
  const override = Number(env.MEMD_HOOK_TIMEOUT_MS);
  const budgetMs = Number.isFinite(override) && override > 0 ? override : isPromptEvent(event) ? PROMPT_BUDGET_MS : DEFAULT_BUDGET_MS;
  // An empty MEMD_HOME means unset, not "the current directory" (hooks run in the user's repo).
  const home = env.MEMD_HOME === "" ? undefined : env.MEMD_HOME;
  return { endpoint: memdEndpoint(undefined, { ...env, MEMD_HOME: home }), budgetMs };
}
