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
  /** PostToolUseFailure: "Exit code N\n" and the interleaved output. */
  error: string;
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
  const toolInput = obj.tool_input;
  return {
    // Copilot CLI writes its fields in camelCase; the other agents in snake_case.
    sessionId: str(obj.session_id ?? obj.sessionId),
    // Cursor names the workspace's folders instead of a working directory.
    cwd: str(obj.cwd) || str(Array.isArray(obj.workspace_roots) ? obj.workspace_roots[0] : undefined),
    transcriptPath: str(obj.transcript_path ?? obj.transcriptPath),
    eventName: str(obj.hook_event_name ?? obj.hookEventName),
    source: str(obj.source),
    prompt: str(obj.prompt),
    toolName: str(obj.tool_name),
    toolInput: typeof toolInput === "object" && toolInput !== null && !Array.isArray(toolInput) ? (toolInput as Record<string, unknown>) : {},
    toolResponse: obj.tool_response,
    error: str(obj.error),
    isInterrupt: obj.is_interrupt === true,
  };
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}
