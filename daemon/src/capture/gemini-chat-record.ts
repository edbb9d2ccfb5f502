import { EDIT_TOOL, isRecord, SHELL_TOOL, str, textEvent, toolResult, toolUse, type TranscriptEvent, WRITE_TOOL } from "./transcript-event.js";

/**
 * Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-*.jsonl`) as transcript
 * events: the user's prompts, Gemini's replies, and the tool calls each reply records with
 * their results.
 */
// Formats read from google-gemini/gemini-cli: packages/core/src/services/chatRecordingService.ts
// and chatRecordingTypes.ts (the records, and how the CLI loads them back) and packages/core/
// src/tools/shell.ts (what a shell result says). The user-role texts Gemini writes itself are
// as its compression prompt and exported sessions show them, not re-read in its source.

/** The `type` of a message record; `info`, `error` and `warning` are the CLI's own notices. */
export const GEMINI_MESSAGE_TYPES = new Set(["user", "gemini", "info", "error", "warning"]);

/** A message record: `{id, timestamp, type, content, ...}` (a Claude Code line has `message`, not `content`). */
export function isGeminiMessage(raw: Record<string, unknown>): boolean {
  return typeof raw.id === "string" && typeof raw.type === "string" && GEMINI_MESSAGE_TYPES.has(raw.type) && "content" in raw && raw.message === undefined;
}

/** Gemini's shell tool, and its edit tools with the file in `args.file_path`. */
const SHELL_TOOLS = new Set(["run_shell_command"]);
const EDIT_TOOLS: Record<string, string> = { replace: EDIT_TOOL, write_file: WRITE_TOOL };

/**
 * User-role text Gemini CLI writes itself: the session context it opens each chat with (the
 * date, the OS, the folder tree), in `<session_context>` since early 2026, and the
 * `<state_snapshot>` summary a compressed history starts with. Both can reach the recording
 * through a `$set.messages` checkpoint of the history.
 */
const GEMINI_CONTEXT_PREFIXES = ["<session_context>", "this is the gemini cli. we are setting up the context for our chat."];
/**
 * Gemini CLI puts what SessionStart hooks answered (memd's briefing) in front of the first
 * prompt as `<hook_context>...</hook_context>`, in the prompt the model gets, the prompt the next
 * hook is given, and the chat recording. It is the hook's text, not the user's.
 */
const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>\s*/g;

/** A prompt without the hook context Gemini CLI put in front of it. */
export function withoutHookContext(text: string): string {
  return text.includes("<hook_context>") ? text.replace(HOOK_CONTEXT, "") : text;
}

/** What the CLI appends to a prompt that names files with `@path`: the files' contents. */
const REFERENCED_FILES = "--- Content from referenced files ---";

/**
 * The events of one message record. A user record whose parts hold a `functionResponse` is a
 * tool's result sent back to the model, not a prompt: the same result is read from the tool
 * call in the Gemini record before it, so it yields nothing here.
 */
export function geminiMessageEvents(record: Record<string, unknown>, line: number): TranscriptEvent[] {
  if (record.type === "user") {
    if (Array.isArray(record.content) && record.content.some((p) => isRecord(p) && p.functionResponse !== undefined)) return [];
    // displayContent, when present, is the prompt as the user typed it (content is what the model got).
    const text = withoutHookContext(userText(record.displayContent ?? record.content));
    return isGeminiContext(text) ? [] : textEvent("user", text, line);
  }
  if (record.type !== "gemini") return [];
  const events: TranscriptEvent[] = [...textEvent("assistant", partsText(record.content), line)];
  const calls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isRecord) : [];
  for (const call of calls) events.push(...toolCallEvents(call, line));
  return events;
}

/**
 * The messages of a whole conversation: a `$set.messages` checkpoint or a legacy single-JSON
 * session file (`{sessionId, messages: [...]}`, before Gemini CLI 0.39). `lineOf` says on which
 * line of the file a message starts.
 */
export function geminiConversation(messages: readonly unknown[], lineOf: (id: string) => number): { id: string; events: TranscriptEvent[] }[] {
  return messages.filter(isRecord).filter((m) => typeof m.id === "string").map((m) => {
    const id = m.id as string;
    return { id, events: geminiMessageEvents(m, lineOf(id)) };
  });
}

function isGeminiContext(text: string): boolean {
  const start = text.trimStart().toLowerCase();
  return GEMINI_CONTEXT_PREFIXES.some((prefix) => start.startsWith(prefix)) || text.includes("<state_snapshot>");
}

/** A prompt's text, without the referenced files the CLI appended to it. */
function userText(content: unknown): string {
  if (typeof content === "string") return cutAtReferencedFiles(content);
  const texts: string[] = [];
  for (const part of Array.isArray(content) ? content : [content]) {
    const text = isRecord(part) ? str(part.text) : str(part);
    if (text.trimStart().startsWith(REFERENCED_FILES)) break;
    texts.push(text);
  }
  return cutAtReferencedFiles(texts.join(""));
}

function cutAtReferencedFiles(text: string): string {
  const at = text.indexOf(REFERENCED_FILES);
  return at < 0 ? text : text.slice(0, at);
}

/** A `PartListUnion` as text: a string, a part, or a list of them; thoughts are left out. */
function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts.map((p) => (typeof p === "string" ? p : isRecord(p) && p.thought !== true ? str(p.text) : "")).join("");
}

/**
 * A tool call and, once it has finished (`status` success or error), its result. A shell
 * command that exits non-zero still has status `success`: the failure is the `Exit Code: N`
 * line of the output the model got, which since v0.27 is written only when N is not 0.
 */
function toolCallEvents(call: Record<string, unknown>, line: number): TranscriptEvent[] {
  const id = str(call.id);
  const name = str(call.name);
  const args = isRecord(call.args) ? call.args : {};
  const shell = SHELL_TOOLS.has(name);
  const editName = EDIT_TOOLS[name];
  const use = shell
    ? toolUse(id, SHELL_TOOL, str(args.command), "", line)
    : editName !== undefined
      ? toolUse(id, editName, "", str(args.file_path), line)
      : toolUse(id, name, "", "", line);
  if (call.status !== "success" && call.status !== "error") return [use];
  const { text, error } = responseText(call.result);
  if (!shell) return [use, toolResult(id, call.status === "error" || error !== "", undefined, error || text, line)];
  const outcome = shellOutcome(text);
  const isError = call.status === "error" || error !== "" || (outcome.exitCode !== undefined ? outcome.exitCode !== 0 : outcome.signalled);
  return [use, toolResult(id, isError, outcome.exitCode, [error, outcome.body].filter((t) => t !== "").join("\n"), line)];
}

/** The output and error a tool's `functionResponse` parts hold. */
function responseText(result: unknown): { text: string; error: string } {
  const texts: string[] = [];
  const errors: string[] = [];
  for (const part of Array.isArray(result) ? result : [result]) {
    if (!isRecord(part)) continue;
    const response = isRecord(part.functionResponse) && isRecord(part.functionResponse.response) ? part.functionResponse.response : undefined;
    if (response) {
      if (typeof response.output === "string") texts.push(response.output);
      if (typeof response.error === "string") errors.push(response.error);
    } else if (typeof part.text === "string") {
      texts.push(part.text);
    }
  }
  return { text: texts.join("\n"), error: errors.join("\n") };
}

/**
 * What a shell result says, as shell.ts writes it for the model:
 * `<untrusted_context>\nOutput: ...\n[Error: ...]\n[Exit Code: N]\n[Signal: ...]\nProcess Group PGID: N\n</untrusted_context>`
 * (the wrapper since v0.48; before v0.27 `Exit Code: 0` and `Exit Code: (none)` were written too).
 */
function shellOutcome(text: string): { exitCode?: number; signalled: boolean; body: string } {
  let body = text.trim();
  const wrapped = /^<untrusted_context>\n?([\s\S]*?)\n?<\/untrusted_context>$/.exec(body);
  if (wrapped) body = wrapped[1] as string;
  const exit = /^Exit Code: (-?\d+)$/m.exec(body);
  const signalled = /^Signal: (?!\(none\)).+$/m.test(body);
  body = body
    .replace(/^Output: ?/, "")
    .split("\n")
    .filter((l) => !/^(?:Exit Code: .*|Process Group PGID: .*|(?:Error|Signal): \(none\))$/.test(l))
    .join("\n");
  return { exitCode: exit ? Number(exit[1]) : undefined, signalled, body };
}
