import fs from "node:fs";
import readline from "node:readline";
import { FailedPreconditionError, InvalidInputError, NotFoundError } from "../errors.js";
import { isSqliteFile, readOpenCodeSession } from "./opencode-storage.js";
import type { TranscriptEvent } from "./transcript-event.js";
import { type ParsedLine, parseTranscriptDocument, parseTranscriptLine, type TranscriptMessage } from "./transcript-line.js";
import { validateAbsolutePath } from "../memory/validate.js";

/**
 * Past this size only the tail is read: a long session's transcript is mostly tool output,
 * and what came before the tail was swept when the context was compacted (PreCompact).
 */
export const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

export interface TranscriptRead {
  events: TranscriptEvent[];
  /** The session id and working directory the transcript records ("" when it records none). */
  sessionId: string;
  cwd: string;
  linesRead: number;
  malformedLines: number;
  /** True when the file was over the limit and only its tail was read. */
  truncated: boolean;
}

/**
 * Checks that `file` names a readable regular file by an absolute path, and that a session id
 * comes with OpenCode's database, with errors that say what to pass instead. Cheap enough to
 * run before answering a hook. With `mayBeUnwritten`, a file that does not exist yet passes (an
 * agent that writes its session after its end hook: see settleTranscript).
 */
export function checkTranscriptPath(file: string, sessionId = "", mayBeUnwritten = false): void {
  validateAbsolutePath("transcript_path", file, "the absolute path of the session's .jsonl transcript");
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if (mayBeUnwritten && (error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw fileError(file, error);
  }
  if (!stat.isFile()) {
    throw new InvalidInputError(`${file} is not a regular file: pass the session's .jsonl transcript`);
  }
  if (sessionId.trim() === "" && isSqliteFile(file)) {
    throw new InvalidInputError(`${file} is OpenCode's database, which holds every session: pass session_id to say which one to sweep`);
  }
}

/**
 * The events read so far, message by message, in the order the messages were first written.
 * Most lines simply add their events. Formats that rewrite messages name them: Gemini CLI
 * appends a message again on every update (its tokens, its tool calls and their results) and
 * the last copy is the message, so a line with the id of a message already read replaces that
 * message's events where they were (as Gemini's own loader does); a rewind takes messages back;
 * a checkpoint replaces everything. Replaced events carry the line of the copy that gave them.
 */
class TranscriptMessages {
  private messages: { id?: string; events: TranscriptEvent[] }[] = [];
  private positions = new Map<string, number>();

  apply(parsed: Extract<ParsedLine, { ok: true }>): void {
    if (parsed.checkpoint) this.replaceAll(parsed.checkpoint);
    if (parsed.rewindTo !== undefined) this.rewind(parsed.rewindTo);
    if (parsed.messageId === undefined) {
      if (parsed.events.length > 0) this.messages.push({ events: parsed.events });
      return;
    }
    const at = this.positions.get(parsed.messageId);
    if (at !== undefined) {
      (this.messages[at] as { events: TranscriptEvent[] }).events = parsed.events;
      return;
    }
    this.positions.set(parsed.messageId, this.messages.length);
    this.messages.push({ id: parsed.messageId, events: parsed.events });
  }

  events(): TranscriptEvent[] {
    return this.messages.flatMap((m) => m.events);
  }

  private replaceAll(messages: readonly TranscriptMessage[]): void {
    this.messages = [];
    this.positions.clear();
    for (const message of messages) this.apply({ ok: true, sessionId: "", cwd: "", events: message.events, messageId: message.id });
  }

  /**
   * Drops the message `id` and everything read after it. An id this read does not hold drops
   * everything, as Gemini's loader does: a tail read started after that message.
   */
  private rewind(id: string): void {
    const at = this.positions.get(id) ?? 0;
    for (const dropped of this.messages.splice(at)) if (dropped.id !== undefined) this.positions.delete(dropped.id);
  }
}

/**
 * Reads and parses a transcript line by line; malformed lines are counted and skipped. A file
 * that is one JSON document spread over many lines (Gemini CLI before 0.39) is read whole
 * instead, when it is within the limit. OpenCode keeps every session in one SQLite database:
 * for that file `sessionId` says which session to read, and each part counts as a line.
 */
export async function readTranscript(file: string, maxBytes = MAX_TRANSCRIPT_BYTES, sessionId = ""): Promise<TranscriptRead> {
  checkTranscriptPath(file, sessionId);
  if (isSqliteFile(file)) return readOpenCodeSession(file, sessionId, maxBytes);
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, "r");
  } catch (error) {
    throw fileError(file, error);
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    const result: TranscriptRead = { events: [], sessionId: "", cwd: "", linesRead: 0, malformedLines: 0, truncated: start > 0 };
    const lines = readline.createInterface({ input: handle.createReadStream({ start, encoding: "utf8", autoClose: false }), crlfDelay: Infinity });
    const messages = new TranscriptMessages();
    let lineNo = 0;
    let opensDocument = false;
    for await (const text of lines) {
      lineNo += 1;
      // Reading from the middle of the file, the first line is a fragment of a longer one.
      if (start > 0 && lineNo === 1) continue;
      if (text.trim() === "") continue;
      result.linesRead += 1;
      const parsed = parseTranscriptLine(text, lineNo);
      if (!parsed.ok) {
        if (result.linesRead === 1) opensDocument = text.trimStart().startsWith("{");
        result.malformedLines += 1;
        continue;
      }
      messages.apply(parsed);
      if (result.sessionId === "") result.sessionId = parsed.sessionId;
      if (result.cwd === "") result.cwd = parsed.cwd;
    }
    // Every line malformed and the first opens an object: perhaps one JSON document.
    const document = opensDocument && start === 0 && result.malformedLines === result.linesRead ? parseTranscriptDocument(await fs.promises.readFile(file, "utf8")) : undefined;
    if (document?.ok) {
      messages.apply(document);
      return { ...result, sessionId: document.sessionId, cwd: document.cwd, malformedLines: 0, events: messages.events() };
    }
    return { ...result, events: messages.events() };
  } finally {
    await handle.close();
  }
}

function fileError(file: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR" || code === "ENAMETOOLONG") {
    return new NotFoundError(`no transcript at ${file}: check the path (Claude Code keeps them in ~/.claude/projects/<project>/<session>.jsonl)`, { cause: error });
  }
  if (code === "EACCES" || code === "EPERM") {
    return new FailedPreconditionError(`memd may not read ${file} (permission denied): the daemon runs as your user, so check the file's mode`, { cause: error });
  }
  return new FailedPreconditionError(`cannot read ${file}: ${code ?? String(error)}`, { cause: error });
}
