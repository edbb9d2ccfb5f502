import { EDIT_TOOL, isRecord, SHELL_TOOL, str, textEvent, toolResult, toolUse, type TranscriptEvent, WRITE_TOOL } from "./transcript-event.js";

/**
 * Cursor agent transcripts (`~/.cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl`) as
 * transcript events.
 *
 * UNVERIFIED: Cursor documents only the `transcript_path` its hooks pass, not the file's format.
 * The shape read here is inferred from third-party readers of these files (agentgrep,
 * tracebench, codeburn, and readers whose tests hold lines captured from Cursor 2026.06): one
 * Anthropic-style message a line, `{"role": "user" | "assistant", "message": {"content": [...]}}`
 * with `text`, `tool_use {name, input}` and `tool_result {content}` blocks, no ids or
 * timestamps, the user's prompt inside `<user_query>` (sometimes followed by `<timestamp>`),
 * and `{"type": "turn_ended", ...}` lines between turns (bookkeeping, read as nothing). Some
 * versions write no tool_result lines at all. Read defensively: anything else yields nothing.
 */

/** A Cursor line: a role and `message.content`, and no `type` (Claude Code's lines have one). */
export function isCursorLine(raw: Record<string, unknown>): boolean {
  return raw.type === undefined && (raw.role === "user" || raw.role === "assistant") && isRecord(raw.message) && raw.message.content !== undefined;
}

/** Cursor's shell tool; its edit tools take the file in `path` (third-party captures show Write {path}). */
const SHELL_TOOLS = new Set(["Shell"]);

export function cursorLineEvents(raw: Record<string, unknown>, line: number): TranscriptEvent[] {
  const role = raw.role === "assistant" ? "assistant" : "user";
  const content = (raw.message as Record<string, unknown>).content;
  if (typeof content === "string") return role === "user" ? textEvent(role, userWords(content), line) : textEvent(role, content, line);
  if (!Array.isArray(content)) return [];
  const events: TranscriptEvent[] = [];
  for (const block of content.filter(isRecord)) {
    if (block.type === "text") {
      events.push(...textEvent(role, role === "user" ? userWords(str(block.text)) : str(block.text), line));
    } else if (block.type === "tool_use" && role === "assistant") {
      events.push(cursorToolUse(block, line));
    } else if (block.type === "tool_result") {
      events.push(cursorToolResult(block, line));
    }
  }
  return events;
}

/**
 * The user's words: what is inside `<user_query>`. A user block with no query that opens with
 * a tag (`<user_info>`, `<system_reminder>`, attached files...) is context Cursor added.
 */
function userWords(text: string): string {
  const queries = [...text.matchAll(/<user_query>([\s\S]*?)<\/user_query>/g)].map((m) => (m[1] as string).trim());
  if (queries.length > 0) return queries.join("\n\n");
  return /^\s*<[a-z][\w-]*>/i.test(text) ? "" : text;
}

function cursorToolUse(block: Record<string, unknown>, line: number): TranscriptEvent {
  const id = str(block.id);
  const name = str(block.name);
  const input = isRecord(block.input) ? block.input : {};
  if (SHELL_TOOLS.has(name)) return toolUse(id, SHELL_TOOL, str(input.command), "", line);
  const file = str(input.path) || str(input.file_path) || str(input.target_file);
  if (file !== "" && /write|create/i.test(name)) return toolUse(id, WRITE_TOOL, "", file, line);
  if (file !== "" && /edit|replace|patch/i.test(name)) return toolUse(id, EDIT_TOOL, "", file, line);
  return toolUse(id, name, "", "", line);
}

/** A shell result may open with `Exit code: N` (as Cursor's chat store writes it); is_error is the other signal. */
function cursorToolResult(block: Record<string, unknown>, line: number): TranscriptEvent {
  const text = resultText(block.content);
  const exit = /^Exit code: (-?\d+)\r?\n/.exec(text);
  const exitCode = exit ? Number(exit[1]) : undefined;
  const body = exit ? text.slice(exit[0].length).replace(/^\s*(?:Command output:\s*)?/, "") : text;
  const isError = block.is_error === true || (exitCode !== undefined && exitCode !== 0);
  return toolResult(str(block.tool_use_id), isError, exitCode, body, line);
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isRecord)
    .map((b) => (b.type === "text" ? str(b.text) : ""))
    .join("\n");
}
