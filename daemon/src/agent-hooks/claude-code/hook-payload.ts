import { withoutHookContext } from "../../capture/gemini-chat-record.js";
import { str } from "../../capture/transcript-event.js";

/** The fields of an agent's hook payload (Claude Code's names) that memd reads; everything else is ignored. */
export interface HookInput {
  sessionId: string;
  cwd: string;
  /** The session's transcript (JSON Lines); SessionEnd and PreCompact sweep it. */
  transcriptPath: string;
  eventName: string;
  source: string;
  prompt: string;
  toolName: string;
  toolInput: Record<string, unknown>;
  /** Present on PostToolUse; absent on PostToolUseFailure. */
  toolResponse: unknown;
  /** PostToolUseFailure: "Exit code N\n" and the interleaved output (Cursor's `error_message`). */
  error: string;
  /** Cursor's postToolUseFailure: error, timeout or permission_denied. */
  failureType: string;
  isInterrupt: boolean;
}

/**
 * Reads a hook payload leniently: Claude Code adds and drops fields between versions, so only
 * the JSON shape itself is required and every field falls back to an empty value.
 */
export function parseHookInput(text: string): HookInput {
  const raw: unknown = JSON.parse(text);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new Error("hook input is not a JSON object");
  const obj = raw as Record<string, unknown>;
  // Copilot CLI's toolArgs is an object, or JSON in a string in its older builds.
  const toolInput = obj.tool_input ?? (typeof obj.toolArgs === "string" ? parseOrNull(obj.toolArgs) : obj.toolArgs);
  return {
    // Copilot CLI writes its fields in camelCase; the other agents in snake_case.
    sessionId: str(obj.session_id ?? obj.sessionId),
    // Cursor names the workspace's folders instead of a working directory.
    cwd: str(obj.cwd) || str(Array.isArray(obj.workspace_roots) ? obj.workspace_roots[0] : undefined),
    transcriptPath: str(obj.transcript_path ?? obj.transcriptPath),
    eventName: str(obj.hook_event_name ?? obj.hookEventName),
    source: str(obj.source),
    // Gemini CLI's BeforeAgent prompt carries the SessionStart briefing in front of the user's words.
    prompt: withoutHookContext(str(obj.prompt)),
    toolName: str(obj.tool_name ?? obj.toolName),
    toolInput: typeof toolInput === "object" && toolInput !== null && !Array.isArray(toolInput) ? (toolInput as Record<string, unknown>) : {},
    toolResponse: obj.tool_response ?? obj.toolResult,
    error: str(obj.error) || str(obj.error_message),
    failureType: str(obj.failure_type),
    isInterrupt: obj.is_interrupt === true,
  };
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
