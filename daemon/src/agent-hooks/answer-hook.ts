import { InvalidInputError } from "../errors.js";
import type { RpcCaller } from "./rpc-caller.js";
import { parseHookInput } from "./claude-code/hook-payload.js";
import { saveFailureTrace, saveMemoryNote } from "./claude-code/post-tool-use.js";
import { sweepTranscript } from "./claude-code/session-end.js";
import { sessionBriefing } from "./claude-code/session-start.js";
import { promptPointers } from "./claude-code/user-prompt-submit.js";
import { parseOpenCodeInput } from "./opencode/opencode-payload.js";
import { shellFailure } from "./shell-failure.js";

/**
 * What memd does for a hook event: brief the session, point a prompt at memories, save a
 * Claude Code memory note, save a failed shell command as a trace, sweep the transcript, or
 * nothing (an event accepted so that its hook does not fail).
 */
export type HookAction = "briefing" | "pointers" | "memory-note" | "shell-failure" | "sweep" | "nothing";

/**
 * The agents whose hooks memd answers, each event by the agent's own name, and what memd does for it.
 * - Claude Code: every event memd uses (code.claude.com/docs/en/hooks).
 * - Codex sends Claude Code's payload fields and reads its output (openai/codex,
 *   codex-rs/hooks/schema). It has no session end: Stop, at the end of each turn, and PreCompact
 *   sweep the rollout (`transcript_path`), where the exit codes its PostToolUse lacks are.
 * - Gemini CLI: SessionStart, BeforeAgent (a prompt) and AfterTool read
 *   `hookSpecificOutput.additionalContext`; SessionEnd and PreCompress name the chat recording
 *   (google-gemini/gemini-cli, docs/hooks/reference.md).
 * - GitHub Copilot CLI sends camelCase fields (`sessionId`, `toolName`, `toolArgs`, `toolResult`)
 *   and reads a top-level `additionalContext` (github/docs, content/copilot/reference/hooks-reference.md).
 * - Cursor sends `workspace_roots` for a working directory and reads `additional_context`
 *   (cursor.com/docs/hooks); its prompt hook can only allow or block, so memd takes no prompts there.
 * - OpenCode runs memd's plugin, which posts its events by OpenCode's names (opencode/opencode-payload.ts):
 *   a session created or compacted is briefed, and the briefing waits in the plugin for the
 *   session's next chat.message, which gets the pointers; tool.execute.after reports the bash
 *   tool's exit code; session.idle (the end of each turn) sweeps the session from OpenCode's database.
 */
const AGENT_EVENTS = {
  "claude-code": {
    SessionStart: "briefing",
    UserPromptSubmit: "pointers",
    PostToolUse: "memory-note",
    PostToolUseFailure: "shell-failure",
    SessionEnd: "sweep",
    PreCompact: "sweep",
    Stop: "nothing",
  },
  codex: { SessionStart: "briefing", UserPromptSubmit: "pointers", Stop: "sweep", PreCompact: "sweep" },
  gemini: { SessionStart: "briefing", BeforeAgent: "pointers", AfterTool: "shell-failure", SessionEnd: "sweep", PreCompress: "sweep" },
  copilot: {
    sessionStart: "briefing",
    userPromptSubmitted: "pointers",
    postToolUse: "shell-failure",
    postToolUseFailure: "shell-failure",
    sessionEnd: "sweep",
    preCompact: "sweep",
  },
  cursor: { sessionStart: "briefing", postToolUseFailure: "shell-failure", sessionEnd: "sweep", preCompact: "sweep" },
  opencode: {
    "session.created": "briefing",
    "session.compacted": "briefing",
    "chat.message": "pointers",
    "tool.execute.after": "shell-failure",
    "session.idle": "sweep",
  },
} as const satisfies Record<string, Record<string, HookAction>>;
export type HookAgent = keyof typeof AGENT_EVENTS;
export const HOOK_AGENTS = Object.keys(AGENT_EVENTS) as HookAgent[];

/** Claude Code caps each output string at 10,000 characters; stay well under it. */
const MAX_CONTEXT_CHARS = 8000;

/** A route's event: the agent, its own name for the event, and what memd does for it. */
export interface HookEvent {
  agent: HookAgent;
  name: string;
  action: HookAction;
}

/** The agent and event a route names (`session-start` and `SessionStart` alike), or null. */
export function hookEvent(agent: string, name: string): HookEvent | null {
  if (!(HOOK_AGENTS as string[]).includes(agent)) return null;
  const events: Record<string, HookAction> = AGENT_EVENTS[agent as HookAgent];
  const flat = name.replace(/[-_]/g, "").toLowerCase();
  const own = Object.keys(events).find((e) => e.toLowerCase() === flat);
  return own === undefined ? null : { agent: agent as HookAgent, name: own, action: events[own] as HookAction };
}

/**
 * What memd answers to one hook event: the JSON a command hook prints (and an http hook
 * returns), or "" for nothing. The payload is the agent's own, as the hook received it.
 */
export async function answerHookEvent(hook: HookEvent, payload: string, rpc: RpcCaller): Promise<string> {
  let input;
  try {
    input = hook.agent === "opencode" ? parseOpenCodeInput(hook.name, payload) : parseHookInput(payload);
  } catch (error) {
    // JSON.parse's message quotes the start of the text, which may hold a secret: name only what is wrong.
    const why = error instanceof SyntaxError ? "it is not JSON" : error instanceof Error ? error.message : String(error);
    throw new InvalidInputError(`the ${hook.name} payload is not the agent's hook JSON: ${why}`, { cause: error });
  }
  if (input === null) return "";
  const context = await contextFor(hook, input, rpc);
  const text = context.length > MAX_CONTEXT_CHARS ? `${context.slice(0, MAX_CONTEXT_CHARS - 1)}…` : context;
  if (text === "") return "";
  return JSON.stringify(outputOf(hook, text));
}

/** The context in the shape the agent reads. */
function outputOf(hook: HookEvent, text: string): Record<string, unknown> {
  if (hook.agent === "copilot") return { additionalContext: text };
  if (hook.agent === "cursor") return { additional_context: text };
  // The plugin adds these to the user's message as OpenCode's own synthetic parts: the model reads them, the user's view does not show them.
  if (hook.agent === "opencode") return { parts: [{ type: "text", text, synthetic: true }] };
  return { hookSpecificOutput: { hookEventName: hook.name, additionalContext: text } };
}

function contextFor(hook: HookEvent, input: ReturnType<typeof parseHookInput>, rpc: RpcCaller): Promise<string> {
  switch (hook.action) {
    case "briefing":
      return sessionBriefing(input, hook.agent, hook.name, rpc);
    case "pointers":
      return promptPointers(input, hook.agent, hook.name, rpc);
    case "memory-note":
      return saveMemoryNote(input, rpc);
    case "shell-failure": {
      const failure = shellFailure(hook.agent, hook.name, input);
      return failure === null ? Promise.resolve("") : saveFailureTrace(failure, input, hook.agent, rpc);
    }
    case "sweep":
      return sweepTranscript(input, hook.agent, hook.name, rpc);
    case "nothing":
      return Promise.resolve("");
  }
}
