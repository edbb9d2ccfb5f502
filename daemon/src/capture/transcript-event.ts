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
