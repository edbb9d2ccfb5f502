import fs from "node:fs";
import path from "node:path";
import { FailedPreconditionError, InvalidInputError, NotFoundError } from "../errors.js";
import type { MemoryRecord } from "../memory/memory.js";
import { isIndexFile, isMarkdownFile } from "./claude-paths.js";
import { compressVerdict, type NoteVerdict } from "./compress-verdict.js";
import { backupCopy, newBackupRun, readTextIfExists, writeFileAtomic } from "./markdown-files.js";
import { validateAbsolutePath } from "../memory/validate.js";

/** Notes are small (memd-hook saves at most 64 KiB); anything far larger is not a note. */
const MAX_NOTE_BYTES = 1024 * 1024;

export interface CompressOptions {
  /** Absolute paths of notes or of directories holding notes. */
  paths: readonly string[];
  /** The project whose memories (and global ones) count as holding a note. */
  project: string;
  dryRun: boolean;
  backupDir: string;
  now: number;
  holdersOf: (content: string) => readonly MemoryRecord[];
}

export interface CompressedNote {
  path: string;
  outcome: NoteVerdict["outcome"];
  memoryId: string;
  reason: string;
  backupPath: string;
}

/**
 * Replaces each note memd holds with a stub, after copying it to a fresh backup directory; on
 * a dry run only reports. A note that changed between reading and writing is left alone.
 */
export function compressNotes(options: CompressOptions): CompressedNote[] {
  let backupRun: string | null = null;
  return expandPaths(options.paths).map((file): CompressedNote => {
    const base = { path: file, memoryId: "", reason: "", backupPath: "" };
    const problem = unreadable(file);
    if (problem) return { ...base, outcome: "skipped", reason: problem };
    const text = fs.readFileSync(file, "utf8");
    const verdict = compressVerdict(text, options.project, options.holdersOf);
    if (verdict.outcome === "not-in-database" || verdict.outcome === "skipped") return { ...base, outcome: verdict.outcome, reason: verdict.reason };
    if (verdict.outcome === "already-stub" || options.dryRun) return { ...base, outcome: verdict.outcome, memoryId: verdict.memoryId };
    if (readTextIfExists(file) !== text) {
      return { ...base, outcome: "skipped", reason: "the file changed while memd was compressing it: run compress again" };
    }
    backupRun ??= newBackupRun(options.backupDir, options.now);
    const backupPath = backupCopy(file, backupRun);
    writeFileAtomic(file, verdict.stub);
    return { ...base, outcome: "compressed", memoryId: verdict.memoryId, backupPath };
  });
}

/**
 * The note files named by `paths`: a directory stands for its *.md files (not recursively, and
 * never the MEMORY.md index), a file for itself. Sorted by path, each once.
 */
export function expandPaths(paths: readonly string[]): string[] {
  const files = new Set<string>();
  for (const given of paths) {
    const resolved = validateAbsolutePath("paths", given, "an absolute path to a .md note or a directory of notes");
    const stat = statOrNull(resolved);
    if (!stat) throw new NotFoundError(`${resolved} does not exist: give a .md note or a directory of notes`);
    if (stat.isDirectory()) {
      for (const name of readDirectory(resolved)) {
        if (isMarkdownFile(name) && !isIndexFile(name)) files.add(path.join(resolved, name));
      }
    } else if (isMarkdownFile(resolved)) {
      files.add(resolved);
    } else {
      throw new InvalidInputError(`${resolved} is not a Markdown note: compress takes .md files or directories of them`);
    }
  }
  return [...files].sort();
}

/** Why a file cannot be compressed before reading it, or null when it can be read. */
function unreadable(file: string): string | null {
  if (isIndexFile(file)) return "the MEMORY.md index is not a note (MEMORY.md sync keeps memd's part of it)";
  const stat = lstatOrNull(file);
  if (!stat) return "it is gone (deleted since it was listed)";
  if (stat.isSymbolicLink()) return "a symbolic link: compress the file it points to instead";
  if (!stat.isFile()) return "not a regular file";
  if (stat.size > MAX_NOTE_BYTES) return `larger than ${MAX_NOTE_BYTES} bytes, so not a memory note`;
  return null;
}

function readDirectory(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (error) {
    throw new FailedPreconditionError(`cannot read ${dir} (${(error as NodeJS.ErrnoException).code ?? "error"}): check its permissions`, { cause: error });
  }
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** A path that names nothing: no such entry, a file where a directory should be, or a name too long for any entry. */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "ENAMETOOLONG";
}
