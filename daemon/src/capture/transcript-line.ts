/**
 * One line of a session transcript, reduced to what the sweep reads: the text the user and the
 * assistant wrote, the tools the assistant ran (name, command, file) and whether each run
 * failed. Tool output bodies, file contents, usage counters and bookkeeping lines are dropped
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

export type ParsedLine =
  | { ok: false }
  | { ok: true; events: TranscriptEvent[]; sessionId: string; cwd: string };

/** A failure's first few kilobytes say what went wrong; the rest is the same test run. */
const OUTPUT_HEAD_CHARS = 4000;

/**
 * Parses one JSON Lines entry. Claude Code lines (`{type, message: {role, content}}`), Codex
 * rollout lines (`{type: "response_item", payload: {type: "message", ...}}`) and plain
 * `{role, content}` lines are understood; any other JSON object is bookkeeping and yields no
 * events. Only text that is not JSON, or JSON that is not an object, is malformed.
 */
export function parseTranscriptLine(text: string, line: number): ParsedLine {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  if (!isRecord(raw)) return { ok: false };
  const base = { ok: true as const, sessionId: str(raw.sessionId), cwd: str(raw.cwd) };

  // Side conversations (subagents), injected meta prompts and compaction summaries are not
  // the user speaking: a summary in particular restates rules the model wrote itself.
  if (raw.isSidechain === true || raw.isMeta === true || raw.isCompactSummary === true || raw.isVisibleInTranscriptOnly === true) {
    return { ...base, events: [] };
  }
  if ((raw.type === "user" || raw.type === "assistant") && isRecord(raw.message)) {
    const role = raw.message.role === "assistant" ? "assistant" : "user";
    return { ...base, events: contentEvents(role, raw.message.content, line) };
  }
  if (raw.type === "session_meta" && isRecord(raw.payload)) {
    return { ...base, sessionId: str(raw.payload.id), cwd: str(raw.payload.cwd), events: [] };
  }
  if (raw.type === "turn_context" && isRecord(raw.payload)) {
    return { ...base, cwd: str(raw.payload.cwd), events: [] };
  }
  if (raw.type === "response_item" && isRecord(raw.payload) && raw.payload.type === "message") {
    const role = raw.payload.role;
    if (role !== "user" && role !== "assistant") return { ...base, events: [] };
    return { ...base, events: contentEvents(role, raw.payload.content, line) };
  }
  if (raw.type === undefined && (raw.role === "user" || raw.role === "assistant")) {
    return { ...base, events: contentEvents(raw.role, raw.content, line) };
  }
  return { ...base, events: [] };
}

function contentEvents(role: "user" | "assistant", content: unknown, line: number): TranscriptEvent[] {
  if (typeof content === "string") return textEvent(role, content, line);
  if (!Array.isArray(content)) return [];
  const events: TranscriptEvent[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    switch (block.type) {
      case "text":
      case "input_text":
      case "output_text":
        events.push(...textEvent(role, str(block.text), line));
        break;
      case "tool_use": {
        const input = isRecord(block.input) ? block.input : {};
        events.push({
          kind: "tool-use",
          id: str(block.id),
          name: str(block.name),
          command: str(input.command),
          filePath: str(input.file_path) || str(input.notebook_path),
          line,
        });
        break;
      }
      case "tool_result":
        events.push({
          kind: "tool-result",
          toolUseId: str(block.tool_use_id),
          isError: block.is_error === true,
          outputHead: resultText(block.content).slice(0, OUTPUT_HEAD_CHARS),
          line,
        });
        break;
      default:
        // thinking, images, documents: not prose anyone said.
        break;
    }
  }
  return events;
}

function textEvent(role: "user" | "assistant", text: string, line: number): TranscriptText[] {
  return text.trim() === "" ? [] : [{ kind: "text", role, text, line }];
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isRecord)
    .map((block) => (block.type === "text" ? str(block.text) : ""))
    .join("\n");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}
