/**
 * What the sweep reads of a session transcript, whichever agent wrote it: the text the user
 * and the assistant wrote, the tools the assistant ran (name, command, file) and whether each
 * run failed. Tool output bodies, file contents, usage counters and bookkeeping lines are dropped
 * here, so nothing downstream can turn them into memories.
 */

/** Prose written by the user or the assistant. */
export interface TranscriptText {
  kind: "text";
  role: "user" | "assistant";
  text: string;
  /** 1-based line number in the transcript, for evidence. */
  line: number;
}

/** A tool the assistant called. */
export interface TranscriptToolUse {
  kind: "tool-use";
  id: string;
  name: string;
  /** The shell command, for tools that run one. */
  command: string;
  /** The file written or edited, for tools that change one. */
  filePath: string;
  line: number;
}

/** The outcome of a tool call. */
export interface TranscriptToolResult {
  kind: "tool-result";
  toolUseId: string;
  isError: boolean;
  /** The start of the output, enough to say what failed; never stored whole. */
  outputHead: string;
  line: number;
}

export type TranscriptEvent = TranscriptText | TranscriptToolUse | TranscriptToolResult;

/** A failure's first few kilobytes say what went wrong; the rest is the same test run. */
export const OUTPUT_HEAD_CHARS = 4000;

/** A text event, or none for blank text. */
export function textEvent(role: "user" | "assistant", text: string, line: number): TranscriptText[] {
  return text.trim() === "" ? [] : [{ kind: "text", role, text, line }];
}

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON string field's value, or "" for anything else. */
export function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * Shell runs carry Claude Code's name for them and edits "Edit" or "Write", whichever agent
 * made them, so every agent's failures and fixes read the same downstream (extract-episodes
 * looks for a command, and for edit/write/patch in an edit's name).
 */
export const SHELL_TOOL = "Bash";
export const EDIT_TOOL = "Edit";
export const WRITE_TOOL = "Write";

export function toolUse(id: string, name: string, command: string, filePath: string, line: number): TranscriptToolUse {
  return { kind: "tool-use", id, name, command, filePath, line };
}

/**
 * A tool's outcome. When the exit code is known the head starts with the exit line in Claude
 * Code's wording ("Exit code 1\n..."), which is what the episode extractor quotes.
 */
export function toolResult(toolUseId: string, isError: boolean, exitCode: number | undefined, body: string, line: number): TranscriptToolResult {
  const head = exitCode !== undefined ? `Exit code ${exitCode}\n${body}` : body;
  return { kind: "tool-result", toolUseId, isError, outputHead: head.slice(0, OUTPUT_HEAD_CHARS), line };
}

/** Tool arguments given as an object, or as JSON in a string; anything else is no arguments. */
export function argumentsObject(raw: unknown): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (typeof raw !== "string") return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** The files an apply_patch body adds, updates or deletes (`*** Update File: path`), each once. */
function patchedFiles(patch: string): string[] {
  const files = [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => (m[1] as string).trim()).filter((f) => f !== "");
  return [...new Set(files)];
}

/**
 * One Edit per file an apply_patch body touches, the first under the call's own id so its
 * result still pairs with it; a patch naming no file is still one Edit.
 */
export function patchUses(id: string, patch: string, line: number): TranscriptToolUse[] {
  const files = patchedFiles(patch);
  if (files.length === 0) return [toolUse(id, EDIT_TOOL, "", "", line)];
  return files.map((file, i) => toolUse(i === 0 ? id : `${id}#${i + 1}`, EDIT_TOOL, "", file, line));
}
