import fs from "node:fs";
import Database from "better-sqlite3";
import { FailedPreconditionError, NotFoundError } from "../errors.js";
import { openCodeMessageEvents } from "./opencode-message.js";
import type { TranscriptRead } from "./read-transcript.js";
import { isRecord, type TranscriptEvent } from "./transcript-event.js";

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
/** OpenCode writes while memd reads: a checkpoint may hold the file for a moment. */
const BUSY_TIMEOUT_MS = 1000;

/** True when `file` starts as a SQLite database does (OpenCode's opencode.db), not as a JSON Lines transcript. */
export function isSqliteFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    const head = Buffer.alloc(SQLITE_HEADER.length);
    return fs.readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

interface MessageRow {
  id: string;
  data: string;
}

interface PartRow {
  message_id: string;
  data: string;
  bytes: number;
}

/**
 * Reads one session (`sessionId`, which checkTranscriptPath requires) from OpenCode's database (`~/.local/share/opencode/opencode.db`, tables
 * `session`, `message` and `part`, read only): its messages in order, each with its parts.
 * Past `maxBytes` of parts only the newest are read, as a long transcript's tail is. A
 * sub-agent's session (one with a parent) is the parent model talking to a helper, not the
 * user: it yields no events, as Claude Code's side chains do.
 */
// OpenCode's own file, not memd's store: the only SQL memd runs outside store/, and only reads.
export function readOpenCodeSession(file: string, sessionId: string, maxBytes: number): TranscriptRead {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new FailedPreconditionError(`cannot open OpenCode's database ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return readSession(db, file, sessionId, maxBytes);
  } catch (error) {
    if (error instanceof NotFoundError || !(error instanceof Database.SqliteError)) throw error;
    throw new FailedPreconditionError(`${file} is not an OpenCode database memd can read (${error.message})`, { cause: error });
  } finally {
    db.close();
  }
}

function readSession(db: Database.Database, file: string, sessionId: string, maxBytes: number): TranscriptRead {
  const session = db.prepare("SELECT directory, parent_id FROM session WHERE id = ?").get(sessionId) as { directory: string | null; parent_id: string | null } | undefined;
  if (session === undefined) throw new NotFoundError(`no OpenCode session ${sessionId} in ${file}: check the session id (ses_...)`);
  const read: TranscriptRead = { events: [], sessionId, cwd: session.directory ?? "", linesRead: 0, malformedLines: 0, truncated: false };
  if (session.parent_id !== null && session.parent_id !== "") return read;
  // Newest first, so that the budget keeps the tail; message and part ids both sort by time.
  const parts: PartRow[] = [];
  let bytes = 0;
  const newestFirst = db.prepare("SELECT message_id, data, length(data) AS bytes FROM part WHERE session_id = ? ORDER BY message_id DESC, id DESC");
  for (const row of newestFirst.iterate(sessionId) as IterableIterator<PartRow>) {
    bytes += row.bytes;
    if (bytes > maxBytes) {
      read.truncated = true;
      break;
    }
    parts.push(row);
  }
  parts.reverse();
  const messages = db.prepare("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id").all(sessionId) as MessageRow[];
  const partsOf = new Map<string, Record<string, unknown>[]>();
  for (const row of parts) {
    read.linesRead += 1;
    const part = parseObject(row.data);
    if (part === null) read.malformedLines += 1;
    else {
      const list = partsOf.get(row.message_id);
      if (list === undefined) partsOf.set(row.message_id, [part]);
      else list.push(part);
    }
  }
  const events: TranscriptEvent[] = [];
  messages.forEach((row, index) => {
    const own = partsOf.get(row.id);
    const message = parseObject(row.data);
    // A message whose parts were all past the budget was swept before, with the tail before it.
    if (own === undefined || message === null) return;
    events.push(...openCodeMessageEvents(message, own, index + 1));
  });
  read.events = events;
  return read;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

