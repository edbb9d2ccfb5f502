import fs from "node:fs";
import readline from "node:readline";
import { FailedPreconditionError, InvalidInputError, NotFoundError } from "../errors.js";
import type { TranscriptEvent } from "./transcript-event.js";
import { parseTranscriptLine } from "./transcript-line.js";
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
 * Checks that `file` names a readable regular file by an absolute path, with errors that say
 * what to pass instead. Cheap enough to run before answering a hook.
 */
export function checkTranscriptPath(file: string): void {
  validateAbsolutePath("transcript_path", file, "the absolute path of the session's .jsonl transcript");
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    throw fileError(file, error);
  }
  if (!stat.isFile()) {
    throw new InvalidInputError(`${file} is not a regular file: pass the session's .jsonl transcript`);
  }
}

/** Reads and parses a transcript line by line; malformed lines are counted and skipped. */
export async function readTranscript(file: string, maxBytes = MAX_TRANSCRIPT_BYTES): Promise<TranscriptRead> {
  checkTranscriptPath(file);
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
    let lineNo = 0;
    for await (const text of lines) {
      lineNo += 1;
      // Reading from the middle of the file, the first line is a fragment of a longer one.
      if (start > 0 && lineNo === 1) continue;
      if (text.trim() === "") continue;
      result.linesRead += 1;
      const parsed = parseTranscriptLine(text, lineNo);
      if (!parsed.ok) {
        result.malformedLines += 1;
        continue;
      }
      result.events.push(...parsed.events);
      if (result.sessionId === "") result.sessionId = parsed.sessionId;
      if (result.cwd === "") result.cwd = parsed.cwd;
    }
    return result;
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
