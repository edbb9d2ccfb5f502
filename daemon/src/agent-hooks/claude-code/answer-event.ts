import { InvalidInputError } from "../../errors.js";
import type { RpcCaller } from "../rpc-caller.js";
import { parseHookInput } from "./hook-payload.js";
import { saveFromTool } from "./post-tool-use.js";
import { sweepTranscript } from "./session-end.js";
import { sessionBriefing } from "./session-start.js";
import { promptPointers } from "./user-prompt-submit.js";

/** The Claude Code hook events memd answers; Stop is accepted and answered with nothing. */
export const CLAUDE_CODE_EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "SessionEnd", "PreCompact", "Stop"] as const;
export type ClaudeCodeEvent = (typeof CLAUDE_CODE_EVENTS)[number];

/** Claude Code caps each output string at 10,000 characters; stay well under it. */
const MAX_CONTEXT_CHARS = 8000;

/** The event a route or a shim's argument names ("session-start" and "SessionStart" alike), or null. */
export function claudeCodeEvent(name: string): ClaudeCodeEvent | null {
  const flat = name.replace(/[-_]/g, "").toLowerCase();
  return CLAUDE_CODE_EVENTS.find((event) => event.toLowerCase() === flat) ?? null;
}

/**
 * What memd answers to one Claude Code hook event: the JSON a command hook prints (and an http
 * hook returns), or "" for nothing. The payload is Claude Code's own, as the hook received it.
 */
export async function answerClaudeCodeEvent(event: ClaudeCodeEvent, payload: string, rpc: RpcCaller): Promise<string> {
  let input;
  try {
    input = parseHookInput(payload);
  } catch (error) {
    // JSON.parse's message quotes the start of the text, which may hold a secret: name only what is wrong.
    const why = error instanceof SyntaxError ? "it is not JSON" : error instanceof Error ? error.message : String(error);
    throw new InvalidInputError(`the ${event} payload is not Claude Code's hook JSON: ${why}`, { cause: error });
  }
  const context = await contextFor(event, input, rpc);
  const text = context.length > MAX_CONTEXT_CHARS ? `${context.slice(0, MAX_CONTEXT_CHARS - 1)}…` : context;
  return text === "" ? "" : JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
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
