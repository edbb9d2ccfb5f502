import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The thin file layer under MEMORY.md sync and compress: reads, atomic writes, backups. */

/** A file's text, or null when it does not exist. */
export function readTextIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Replaces a file's content atomically: a temporary file in the same directory, flushed to
 * disk, then renamed over the target, so a reader (Claude Code loading MEMORY.md) sees the old
 * or the new text, never half of it. A symlink is followed, so the file it points to changes;
 * an existing file keeps its permissions.
 */
export function writeFileAtomic(file: string, text: string): void {
  const { target, mode, temp } = atomicWritePlan(file, fs.existsSync(file) ? fs.realpathSync(file) : file);
  try {
    const fd = fs.openSync(temp, "wx", mode ?? 0o644);
    try {
      fs.writeFileSync(fd, text, "utf8");
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (mode !== undefined) fs.chmodSync(temp, mode);
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * An atomic write with the file I/O off the event loop (libuv's thread pool), for the vault,
 * which writes thousands of files while requests are answered: `text` into a new file `temp`
 * (created, never opened if it exists, so never through a link), flushed to disk, then renamed
 * over `target` in the same turn of the event loop as `stillWanted` said yes, so that a file
 * someone changed meanwhile is not replaced. Returns false, with nothing changed, when it said no.
 * Unlike writeFileAtomic it resolves no link: the caller names the file itself (see VaultFiles).
 */
export async function replaceFile(temp: string, target: string, text: string, mode: number | undefined, stillWanted: () => boolean = () => true): Promise<boolean> {
  try {
    const handle = await fs.promises.open(temp, "wx", mode ?? 0o644);
    try {
      await handle.writeFile(text, "utf8");
      // On the open file, not its name: a link put in the temporary file's place meanwhile would carry a chmod outside the vault.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!stillWanted()) {
      fs.rmSync(temp, { force: true });
      return false;
    }
    fs.renameSync(temp, target);
    return true;
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

/** The temporary file memd writes beside `name` before renaming it over it: a dot-file, so that watchers skip it. */
export function temporaryName(name: string): string {
  return `.${name}.memd-${randomBytes(6).toString("hex")}.tmp`;
}

/** True for a name temporaryName made (a write cut off by a crash leaves one behind). */
export function isTemporaryName(name: string): boolean {
  return /^\..+\.memd-[0-9a-f]{12}\.tmp$/.test(name);
}

/** Where an atomic write goes (a symlink's target), the mode it keeps, and its temporary file beside it. */
function atomicWritePlan(file: string, target: string): { target: string; mode: number | undefined; temp: string } {
  return { target, mode: fileMode(target), temp: path.join(path.dirname(target), temporaryName(path.basename(target))) };
}

/**
 * Copies a file into a backup run's directory before memd changes it, under a name made from
 * its whole path so that notes of different projects never collide. Returns the copy's path.
 */
export function backupCopy(file: string, dir: string): string {
  const copy = path.join(dir, path.resolve(file).replace(/^[/\\]+/, "").replace(/[/\\]/g, "__"));
  fs.copyFileSync(file, copy, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(copy, 0o600);
  return copy;
}

/** A fresh directory for one run's backups, named by its time so that runs sort in order. */
export function newBackupRun(backupDir: string, at: number): string {
  const root = path.join(backupDir, "memory-files");
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  const stamp = new Date(at).toISOString().replace(/[:.]/g, "-");
  return fs.mkdtempSync(path.join(root, `${stamp}-`));
}

function fileMode(file: string): number | undefined {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}
