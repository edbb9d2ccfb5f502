import fs from "node:fs";
import path from "node:path";
import { backupStamp, changeKind, type FileChange, SetupError } from "./file-change.js";

/** Reads every file a plan needs; a missing file is null. */
export function readContents(files: readonly string[]): Map<string, string | null> {
  const contents = new Map<string, string | null>();
  for (const file of files) contents.set(file, readOrNull(file));
  return contents;
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new SetupError(`cannot read ${file}: ${(error as Error).message}. Nothing was changed.`, { cause: error });
  }
}

export interface AppliedChange {
  change: FileChange;
  /** Where the previous content was copied, or null when no copy was taken. */
  backup: string | null;
}

/**
 * Writes every change that changes something: a backup first where the change asks for one,
 * then the new content through a temporary file and a rename, so that a crash leaves either
 * the old file or the new one. A symlink (dotfile repositories) is written through, never
 * replaced, even when its target does not exist yet; the backup goes beside the path the user
 * sees.
 */
export function applyChanges(changes: readonly FileChange[], now: Date): AppliedChange[] {
  const applied: AppliedChange[] = [];
  for (const change of changes) {
    if (changeKind(change) === "unchanged") continue;
    try {
      applied.push({ change, backup: applyOne(change, backupStamp(now)) });
    } catch (error) {
      const done = applied.length === 0 ? "nothing was changed" : `already changed: ${applied.map((a) => a.change.path).join(", ")}`;
      const reason = error instanceof SetupError ? error.message : `cannot write ${change.path}: ${(error as Error).message}`;
      throw new SetupError(`${reason} (${done})`, { cause: error });
    }
  }
  return applied;
}

/** Linux's limit on symlinks followed in one lookup. */
const MAX_LINKS = 40;

/**
 * The file the content lives in: the path itself, or the end of its chain of symlinks, which
 * need not exist yet. A relative link is resolved against the real directory of the link that
 * holds it, as the kernel does ("../x" from a linked directory leaves its target).
 */
export function linkTarget(file: string): string {
  let current = file;
  for (let hops = 0; hops < MAX_LINKS; hops += 1) {
    if (fs.lstatSync(current, { throwIfNoEntry: false })?.isSymbolicLink() !== true) return current;
    current = path.resolve(fs.realpathSync(path.dirname(current)), fs.readlinkSync(current));
  }
  throw new SetupError(`${file}: too many levels of symbolic links; fix the link and run again`);
}

function applyOne(change: FileChange, stamp: string): string | null {
  const current = readOrNull(change.path);
  if (current !== change.before) throw new SetupError(`${change.path} changed while memctl was planning; run it again`);
  const target = linkTarget(change.path);
  let backup: string | null = null;
  if (current !== null && change.backup) {
    backup = freeName(`${change.path}.memd-backup-${stamp}`);
    fs.copyFileSync(target, backup, fs.constants.COPYFILE_EXCL);
  }
  if (change.after === null) {
    fs.rmSync(target, { force: true });
    return backup;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const mode = current === null ? change.mode : fs.statSync(target).mode & 0o7777;
  const temp = `${target}.memd-tmp-${process.pid}`;
  fs.rmSync(temp, { force: true });
  const fd = fs.openSync(temp, "wx", mode);
  try {
    try {
      fs.writeFileSync(fd, change.after);
      // The umask applies at creation; an existing file keeps exactly the mode it had.
      if (current !== null) fs.fchmodSync(fd, mode);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  return backup;
}

/** The name itself, or the name with -2, -3 … when two runs fall in the same second. */
function freeName(name: string): string {
  let candidate = name;
  for (let n = 2; fs.existsSync(candidate); n += 1) candidate = `${name}-${n}`;
  return candidate;
}
