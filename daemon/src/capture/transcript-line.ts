/**
 * One line of a session transcript, reduced to what the sweep reads: the text the user and the
 * assistant wrote, the tools the assistant ran (name, command, file) and whether each run
 * failed. Tool output bodies, file contents, usage counters and bookkeeping lines are dropped
 * here, so nothing downstream can turn them into memories.
 */

import { codexItemEvents, LEGACY_CODEX_ITEMS } from "./codex-rollout-item.js";
import { copilotLine, isCopilotEvent } from "./copilot-session-event.js";
import { cursorLineEvents, isCursorLine } from "./cursor-transcript-line.js";
import { geminiConversation, geminiMessageEvents, isGeminiMessage } from "./gemini-chat-record.js";
import { isRecord, OUTPUT_HEAD_CHARS, str, textEvent, type TranscriptEvent } from "./transcript-event.js";

/** The events of one message of a conversation, under the id later lines may name it by. */
export interface TranscriptMessage {
  id: string;
  events: TranscriptEvent[];
}

export type ParsedLine =
  | { ok: false }
  | {
      ok: true;
      events: TranscriptEvent[];
      sessionId: string;
      cwd: string;
      /**
       * The id of the message the line writes, in a format that writes a message again each
       * time it changes (Gemini CLI): a line with the id of a message read before replaces
       * that message's events, where they were.
       */
      messageId?: string;
      /** Messages taken back (Gemini's `$rewindTo`): the message with this id and every message read after it. */
      rewindTo?: string;
      /** The whole conversation so far (a Gemini `$set.messages` checkpoint): it replaces every message read before. */
      checkpoint?: TranscriptMessage[];
    };

/**
 * Parses one JSON Lines entry, telling the agent that wrote it from the line's shape (no file
 * format is passed in):
 * - Claude Code: `{type: "user" | "assistant", message: {role, content}}`;
 * - Codex rollouts: `{timestamp, type: "response_item" | "session_meta" | "turn_context" | ...,
 *   payload}`, and the bare response items older Codex builds wrote one a line;
 * - Gemini CLI chat recordings: a `{sessionId, projectHash, ...}` header, message records
 *   `{id, type: "user" | "gemini" | ..., content}`, `{$set}` and `{$rewindTo}` lines;
 * - Copilot CLI session events: `{type: "<area>.<event>", data, id, timestamp, parentId}`;
 * - Cursor agent transcripts (shape inferred, unverified): `{role, message: {content}}`, no `type`;
 * - plain `{role, content}` lines.
 * Any other JSON object is bookkeeping and yields no events. Only text that is not JSON, or
 * JSON that is not an object, is malformed.
 *
 * Codex writes most things twice: a `response_item` (what the model saw) and an `event_msg`
 * (what the UI showed: `user_message`, `agent_message`, `exec_command_end`, `patch_apply_end`).
 * Only the response items are read, so nothing is counted twice; they are also the only kind
 * every Codex version persists (`exec_command_end` is written only in extended persistence).
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
  if (raw.type === "response_item" && isRecord(raw.payload)) {
    return { ...base, events: codexItemEvents(raw.payload, line) };
  }
  // Rollouts from before the {type, payload} envelope (Codex CLI up to mid-2025).
  if (typeof raw.type === "string" && raw.payload === undefined && LEGACY_CODEX_ITEMS.has(raw.type)) {
    return { ...base, events: codexItemEvents(raw, line) };
  }
  if (typeof raw.$rewindTo === "string") {
    return { ...base, events: [], rewindTo: raw.$rewindTo };
  }
  if (isRecord(raw.$set)) {
    // Metadata updates; one holding the full message list is a checkpoint of the conversation.
    const set = raw.$set;
    const checkpoint = Array.isArray(set.messages) && set.messages.length > 0 ? geminiConversation(set.messages, () => line) : undefined;
    return { ...base, sessionId: str(set.sessionId), events: [], ...(checkpoint ? { checkpoint } : {}) };
  }
  if (isGeminiMessage(raw)) {
    return { ...base, events: geminiMessageEvents(raw, line), messageId: raw.id as string };
  }
  if (isCopilotEvent(raw)) {
    return { ok: true, ...copilotLine(raw, line) };
  }
  if (isCursorLine(raw)) {
    return { ...base, events: cursorLineEvents(raw, line) };
  }
  if (raw.type === undefined && (raw.role === "user" || raw.role === "assistant")) {
    return { ...base, events: contentEvents(raw.role, raw.content, line) };
  }
  return { ...base, events: [] };
}

/**
 * A transcript written as one JSON document rather than one a line: Gemini CLI's session
 * files before 0.39 (`{sessionId, projectHash, startTime, lastUpdated, messages: [...]}`).
 * Undefined for any other text. Each message's events carry the line its record starts on.
 */
export function parseTranscriptDocument(text: string): ParsedLine | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(raw) || typeof raw.sessionId !== "string" || !Array.isArray(raw.messages)) return undefined;
  let from = 0;
  let lineAt = 1;
  const lineOf = (id: string): number => {
    const at = text.indexOf(JSON.stringify(id), from);
    if (at < 0) return lineAt;
    for (let i = from; i < at; i++) if (text.charCodeAt(i) === 10) lineAt += 1;
    from = at;
    return lineAt;
  };
  return { ok: true, sessionId: raw.sessionId, cwd: "", events: [], checkpoint: geminiConversation(raw.messages, lineOf) };
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


function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isRecord)
    .map((block) => (block.type === "text" ? str(block.text) : ""))
    .join("\n");
}
