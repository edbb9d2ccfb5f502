import { InvalidInputError } from "../errors.js";
import type { RpcCaller } from "./rpc-caller.js";
import { parseHookInput } from "./claude-code/hook-payload.js";
import { saveFromTool } from "./claude-code/post-tool-use.js";
import { sweepTranscript } from "./claude-code/session-end.js";
import { sessionBriefing } from "./claude-code/session-start.js";
import { promptPointers } from "./claude-code/user-prompt-submit.js";

/** The Claude Code hook events memd answers; Stop is accepted and answered with nothing. */
export const CLAUDE_CODE_EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "SessionEnd", "PreCompact", "Stop"] as const;
export type ClaudeCodeEvent = (typeof CLAUDE_CODE_EVENTS)[number];

/** Claude Code caps each output string at 10,000 characters; stay well under it. */
const MAX_CONTEXT_CHARS = 8000;

/**
 * The agents whose hooks memd answers: each of its event names, and the Claude Code event whose
 * answer it gets. Codex's hooks send Claude Code's payload fields and read its output (openai/codex,
 * codex-rs/hooks/schema); memd takes only its briefing and its prompts, since a failed command there
 * arrives as an ordinary PostToolUse and its transcript is in a format of its own. Gemini CLI's
 * SessionStart (with `source`) and BeforeAgent (with `prompt`) read `hookSpecificOutput.additionalContext`
 * (google-gemini/gemini-cli, docs/hooks/reference.md). GitHub Copilot CLI's sessionStart and
 * userPromptSubmitted send camelCase fields (`sessionId`, `cwd`, `prompt`) and read a top-level
 * `additionalContext` (github/docs, content/copilot/reference/hooks-reference.md). Cursor's
 * sessionStart sends `workspace_roots` for a working directory and reads `additional_context`
 * (cursor.com/docs/hooks); its prompt hook can only allow or block, so memd takes no prompts there.
 */
const AGENT_EVENTS = {
  "claude-code": Object.fromEntries(CLAUDE_CODE_EVENTS.map((event) => [event, event])) as Record<ClaudeCodeEvent, ClaudeCodeEvent>,
  codex: { SessionStart: "SessionStart", UserPromptSubmit: "UserPromptSubmit", Stop: "Stop" },
  gemini: { SessionStart: "SessionStart", BeforeAgent: "UserPromptSubmit" },
  copilot: { sessionStart: "SessionStart", userPromptSubmitted: "UserPromptSubmit" },
  cursor: { sessionStart: "SessionStart" },
} as const satisfies Record<string, Record<string, ClaudeCodeEvent>>;
export type HookAgent = keyof typeof AGENT_EVENTS;
export const HOOK_AGENTS = Object.keys(AGENT_EVENTS) as HookAgent[];

/** A route's event: the agent, its own name for the event, and the Claude Code event it is answered as. */
export interface HookEvent {
  agent: HookAgent;
  name: string;
  event: ClaudeCodeEvent;
}

/** The agent and event a route names (`session-start` and `SessionStart` alike), or null. */
export function hookEvent(agent: string, name: string): HookEvent | null {
  if (!(HOOK_AGENTS as string[]).includes(agent)) return null;
  const events: Record<string, ClaudeCodeEvent> = AGENT_EVENTS[agent as HookAgent];
  const flat = name.replace(/[-_]/g, "").toLowerCase();
  const own = Object.keys(events).find((e) => e.toLowerCase() === flat);
  return own === undefined ? null : { agent: agent as HookAgent, name: own, event: events[own] as ClaudeCodeEvent };
}

/**
 * What memd answers to one hook event: the JSON a command hook prints (and an http hook
 * returns), or "" for nothing. The payload is the agent's own, as the hook received it.
 */
export async function answerHookEvent(hook: HookEvent, payload: string, rpc: RpcCaller): Promise<string> {
  const { event } = hook;
  let input;
  try {
    input = parseHookInput(payload);
  } catch (error) {
    // JSON.parse's message quotes the start of the text, which may hold a secret: name only what is wrong.
    const why = error instanceof SyntaxError ? "it is not JSON" : error instanceof Error ? error.message : String(error);
    throw new InvalidInputError(`the ${hook.name} payload is not the agent's hook JSON: ${why}`, { cause: error });
  }
  const context = await contextFor(event, input, rpc);
  const text = context.length > MAX_CONTEXT_CHARS ? `${context.slice(0, MAX_CONTEXT_CHARS - 1)}…` : context;
  if (text === "") return "";
  return JSON.stringify(outputOf(hook, text));
}

/** The context in the shape the agent reads. */
function outputOf(hook: HookEvent, text: string): Record<string, unknown> {
  if (hook.agent === "copilot") return { additionalContext: text };
  if (hook.agent === "cursor") return { additional_context: text };
  return { hookSpecificOutput: { hookEventName: hook.name, additionalContext: text } };
}

function contextFor(event: ClaudeCodeEvent, input: ReturnType<typeof parseHookInput>, rpc: RpcCaller): Promise<string> {
  switch (event) {
    case "SessionStart":
      return sessionBriefing(input, rpc);
    case "UserPromptSubmit":
      return promptPointers(input, rpc);
    case "PostToolUse":
    case "PostToolUseFailure":
      return saveFromTool({ ...input, eventName: event }, rpc);
    case "SessionEnd":
    case "PreCompact":
      return sweepTranscript({ ...input, eventName: event }, rpc);
    case "Stop":
      return Promise.resolve("");
  }
}
