import {
  argumentsObject, EDIT_TOOL, isRecord, patchUses, SHELL_TOOL, str, textEvent, toolResult, toolUse, type TranscriptEvent, WRITE_TOOL,
} from "./transcript-event.js";

/**
 * GitHub Copilot CLI session events (`~/.copilot/session-state/<sessionId>/events.jsonl`) as
 * transcript events: the user's messages, the assistant's, and each tool run with its outcome.
 */
// Formats read from the @github/copilot 1.0.102 package: schemas/session-events.schema.json
// (every event's fields) and cli-main.js (which user messages are the user's own, and how a
// shell result's exit trailer is written and matched).

/** A session event line: `{type: "<area>.<event>", data: {...}, id, timestamp, parentId}`. */
export function isCopilotEvent(raw: Record<string, unknown>): boolean {
  return typeof raw.type === "string" && /^[a-z_]+(?:\.[a-z_]+)+$/.test(raw.type) && isRecord(raw.data) && typeof raw.id === "string";
}

export interface CopilotLine {
  events: TranscriptEvent[];
  sessionId: string;
  cwd: string;
}

const SHELL_TOOLS = new Set(["bash", "powershell", "local_shell"]);

/**
 * Shell tool trailers: `<shellId: 0 completed with exit code 1>` (1.0.91 on), `<exited with
 * exit code 1>` (builds from April to July 2026). The runtime may put sandbox notices after it.
 */
const EXIT_TRAILER = /^<(?:exited with exit code (-?\d+)|(?:detached command with )?shellId: [^\r\n]+ completed with exit code (-?\d+))>[ \t]*$/;
const SANDBOX_NOTICES = ["<sandbox is active ", "<this failure may be caused by the active sandbox policy.", "<This command was retried outside the Copilot sandbox"];

/**
 * Tool runs are read from `tool.execution_start` and `tool.execution_complete` (joined on
 * `toolCallId`), not from the `toolRequests` of `assistant.message`, which name the same calls
 * again; so each run is read once, and only runs that started. Events of sub-agents (`agentId`,
 * or the older `parentToolCallId`) are left out, as Claude Code's side chains are.
 */
export function copilotLine(raw: Record<string, unknown>, line: number): CopilotLine {
  const data = raw.data as Record<string, unknown>;
  const none: CopilotLine = { events: [], sessionId: "", cwd: "" };
  if (raw.agentId !== undefined || data.parentToolCallId !== undefined) return none;
  switch (raw.type) {
    case "session.start":
      return { ...none, sessionId: str(data.sessionId), cwd: isRecord(data.context) ? str(data.context.cwd) : "" };
    case "session.resume":
      return { ...none, cwd: isRecord(data.context) ? str(data.context.cwd) : "" };
    case "user.message":
      return { ...none, events: isUsersOwn(data) ? textEvent("user", str(data.content), line) : [] };
    case "assistant.message":
      return { ...none, events: textEvent("assistant", str(data.content), line) };
    case "tool.execution_start":
      return { ...none, events: toolStart(str(data.toolCallId), str(data.toolName), argumentsObject(data.arguments), data.arguments, line) };
    case "tool.execution_complete":
      return { ...none, events: [toolComplete(data, line)] };
    default:
      // Turn and session bookkeeping, reasoning, compaction summaries, skills, system messages.
      // A rewind (`session.snapshot_rewind`) is ephemeral: Copilot removes the withdrawn events
      // from the file itself and never writes the rewind there.
      return none;
  }
}

/**
 * `content` is the message as the timeline shows it (the text sent to the model, with its XML
 * wrapping and attachments, is `transformedContent`). A message with a `source` other than
 * "user" was written by Copilot itself (a skill's hidden prompt, `agent-<id>` between agents, a
 * slash command, a schedule, autopilot), as is an autopilot continuation; cli-main.js counts
 * only the rest as the user's turns.
 */
function isUsersOwn(data: Record<string, unknown>): boolean {
  return (data.source === undefined || data.source === null || data.source === "user") && data.isAutopilotContinuation !== true;
}

function toolStart(id: string, name: string, args: Record<string, unknown>, rawArgs: unknown, line: number): TranscriptEvent[] {
  if (SHELL_TOOLS.has(name)) {
    // A background run (`mode: "async"`, or detached) completes at once with no exit code and
    // ends later in a notification: leaving it out keeps its start from reading as a pass.
    if (args.mode === "async" || args.detach === true) return [];
    return [toolUse(id, SHELL_TOOL, str(args.command), "", line)];
  }
  switch (name) {
    case "edit":
      return [toolUse(id, EDIT_TOOL, "", str(args.path), line)];
    case "create":
      return [toolUse(id, WRITE_TOOL, "", str(args.path), line)];
    case "str_replace_editor":
      if (args.command === "view") return [toolUse(id, name, "", "", line)];
      return [toolUse(id, args.command === "create" ? WRITE_TOOL : EDIT_TOOL, "", str(args.path), line)];
    case "apply_patch":
      // A grammar-based tool: its arguments are the patch itself.
      return patchUses(id, typeof rawArgs === "string" ? rawArgs : str(args.input) || str(args.patch), line);
    default:
      return [toolUse(id, name, "", "", line)];
  }
}

/**
 * A failed command is a successful tool call (`success: true`): the exit code is in the
 * experimental `shellExecution.exitCode`, in a `shell_exit` block of `result.contents`, or in
 * the trailer on the last line of `result.content`, tried in that order.
 */
function toolComplete(data: Record<string, unknown>, line: number): TranscriptEvent {
  const result = isRecord(data.result) ? data.result : {};
  const error = isRecord(data.error) ? str(data.error.message) : "";
  const trailer = exitTrailer(str(result.content));
  const exitCode = integer(isRecord(data.shellExecution) ? data.shellExecution.exitCode : undefined) ?? shellExitBlock(result.contents) ?? trailer.exitCode;
  const isError = data.success === false || (exitCode !== undefined && exitCode !== 0);
  const body = error === "" ? trailer.body : trailer.body === "" ? error : `${error}\n${trailer.body}`;
  return toolResult(str(data.toolCallId), isError, exitCode, body, line);
}

function exitTrailer(content: string): { exitCode?: number; body: string } {
  const lines = content.replace(/\r\n?/g, "\n").split("\n");
  let at = lines.length - 1;
  while (at >= 0 && ((lines[at] as string).trim() === "" || SANDBOX_NOTICES.some((n) => (lines[at] as string).startsWith(n)))) at -= 1;
  const match = at >= 0 ? EXIT_TRAILER.exec(lines[at] as string) : null;
  if (!match) return { body: content };
  lines.splice(at, 1);
  return { exitCode: Number(match[1] ?? match[2]), body: lines.join("\n").replace(/\n+$/, "") };
}

function shellExitBlock(contents: unknown): number | undefined {
  if (!Array.isArray(contents)) return undefined;
  for (const block of contents) {
    if (isRecord(block) && block.type === "shell_exit") {
      const code = integer(block.exitCode);
      if (code !== undefined) return code;
    }
  }
  return undefined;
}

function integer(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}
