import fs from "node:fs";
import path from "node:path";
import { isTemporaryName, replaceFile, temporaryName } from "../memory-files/markdown-files.js";
import { type Folder, LINKS_REFUSED, lstatOrNull, openVaultFolder, VaultPathError } from "./vault-folders.js";

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/**
 * Every read, write, removal and listing of the vault's files goes through here, and none of
 * them follows a symbolic link inside the vault: a link there (a git pull can plant one, to a
 * blog post or ~/.ssh/config) is left alone and reported, never read, never written through.
 * The vault's own directory is the person's choice and may be reached through links; below it,
 * every folder is opened one name at a time with O_NOFOLLOW and every file with O_NOFOLLOW.
 * How a folder is held so that one swapped for a link cannot redirect a write: vault-folders.ts.
 *
 * Only regular files are read (a FIFO named x.md would block the reader forever; it is opened
 * without blocking and refused), and none larger than the limit the daemon sets.
 */

/** A file's text, or why memd did not read it. */
export type VaultRead =
  | { kind: "text"; text: string; mtimeMs: number }
  | { kind: "missing" }
  /** A symbolic link (at the path, or a folder on the way to it), not followed; `link` is the link's own path. */
  | { kind: "link"; link: string; target: string }
  /** Something memd does not read: not a regular file, or too large. */
  | { kind: "refused"; reason: string };

/** What the vault holds at one of memd's places, from a listing that follows no link. */
export type VaultEntry = { kind: "file" | "temporary"; path: string } | { kind: "link"; path: string; target: string };

/**
 * The largest memory file memd reads: content, problem and solution at the daemon's limit, and
 * 4 MiB for the frontmatter and its history. A larger file is no file memd wrote, and reading and
 * parsing it would hold up the daemon.
 */
export function maxVaultFileBytes(maxContentBytes: number): number {
  return 3 * maxContentBytes + 4 * 1024 * 1024;
}

export class VaultFiles {
  constructor(
    /** The vault's directory (absolute). */
    readonly root: string,
    /** The largest file memd reads, in bytes. */
    private readonly maxFileBytes: number,
  ) {}

  /** A file's text, read without following a link anywhere below the vault's directory. */
  read(relative: string): VaultRead {
    const { folder: parts, name } = split(relative);
    return this.inFolder(
      parts,
      (refused): VaultRead => (refused?.link ? { kind: "link", link: refused.at, target: this.linkTarget(refused.at) } : { kind: "missing" }),
      (folder) => this.readIn(folder, name, relative),
    );
  }

  /**
   * Replaces a file atomically (a temporary file beside it, flushed, renamed over it), making its
   * folders as needed; `stillWanted` is asked right before the rename (see replaceFile). Throws
   * VaultPathError when a link (or a file) is where a folder must be, or a link is at the path:
   * memd writes through no link, and does not replace one either.
   */
  async write(relative: string, text: string, stillWanted: () => boolean): Promise<boolean> {
    const { folder: parts, name } = split(relative);
    const folder = openVaultFolder(this.root, parts, true);
    if (folder === null) throw new Error(`the vault's folder ${this.root} could not be made`);
    try {
      const target = path.join(folder.dir, name);
      const mode = this.regularFileMode(target, relative);
      return await replaceFile(path.join(folder.dir, temporaryName(name)), target, text, mode, () => {
        if (!stillWanted()) return false;
        // A link planted while the text was being written is not replaced either (rename would replace the link, not follow it).
        this.regularFileMode(target, relative);
        return true;
      });
    } finally {
      folder.close();
    }
  }

  /** Removes a file when `removable` says so of its text; a link, or anything but a file, stays. */
  remove(relative: string, removable: (text: string) => boolean): void {
    const { folder: parts, name } = split(relative);
    this.inFolder(parts, () => undefined, (folder) => {
      const found = this.readIn(folder, name, relative);
      if (found.kind === "text" && removable(found.text)) fs.rmSync(path.join(folder.dir, name), { force: true });
    });
  }

  /**
   * Memd's places in the vault, in name order: the `.md` files of `<project>/<kind>/` folders
   * (`isKind` says which names are kinds), the temporary files memd left there, and the links at
   * those places (a kind folder or a file that is a link, or a project folder that is one, when
   * `isProject` says memd keeps files under that name). Nothing else is looked at.
   */
  *entries(isKind: (name: string) => boolean, isProject: (name: string) => boolean): Generator<VaultEntry> {
    for (const project of this.list([])) {
      if (project.name.startsWith(".")) continue;
      if (project.isSymbolicLink()) {
        if (isProject(project.name)) yield this.linkEntry(project.name);
        continue;
      }
      if (!project.isDirectory()) continue;
      for (const kind of this.list([project.name])) {
        if (!isKind(kind.name)) continue;
        const folder = `${project.name}/${kind.name}`;
        if (kind.isSymbolicLink()) yield this.linkEntry(folder);
        if (!kind.isDirectory()) continue;
        for (const file of this.list([project.name, kind.name])) {
          const relative = `${folder}/${file.name}`;
          if (isTemporaryName(file.name) && file.isFile()) yield { kind: "temporary", path: relative };
          else if (file.name.startsWith(".") || !file.name.endsWith(".md")) continue;
          else if (file.isSymbolicLink()) yield this.linkEntry(relative);
          else if (file.isFile()) yield { kind: "file", path: relative };
        }
      }
    }
  }

  /** Removes one of memd's temporary files if it was last written before `before` (ms): a write cut off by a crash. */
  removeTemporary(relative: string, before: number): boolean {
    const { folder: parts, name } = split(relative);
    if (!isTemporaryName(name)) return false;
    return this.inFolder(parts, () => false, (folder) => {
      const file = path.join(folder.dir, name);
      const stats = lstatOrNull(file);
      if (stats === null || !stats.isFile() || stats.mtimeMs >= before) return false;
      fs.rmSync(file, { force: true });
      return true;
    });
  }

  /** What the link at `relative` points to, read without following it or any link on the way; "" when no link is there. */
  linkTarget(relative: string): string {
    const { folder: parts, name } = split(relative);
    return this.inFolder(parts, () => "", (folder) => {
      try {
        return fs.readlinkSync(path.join(folder.dir, name));
      } catch {
        return "";
      }
    });
  }

  private linkEntry(relative: string): VaultEntry {
    return { kind: "link", path: relative, target: this.linkTarget(relative) };
  }

  private list(parts: readonly string[]): fs.Dirent[] {
    return this.inFolder(parts, () => [], (folder) => fs.readdirSync(folder.dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1)));
  }

  /**
   * `use` of the open folder at `parts`, closed after; `absent` when it does not exist, or with
   * the refusal when a link or a file is on the way.
   */
  private inFolder<T>(parts: readonly string[], absent: (refused: VaultPathError | null) => T, use: (folder: Folder) => T): T {
    let folder: Folder | null;
    try {
      folder = openVaultFolder(this.root, parts, false);
    } catch (error) {
      if (error instanceof VaultPathError) return absent(error);
      throw error;
    }
    if (folder === null) return absent(null);
    try {
      return use(folder);
    } finally {
      folder.close();
    }
  }

  /** The text of the file `name` in the open folder (`relative` is its path in the vault): only a regular file, not too large. */
  private readIn(folder: Folder, name: string, relative: string): VaultRead {
    let fd: number;
    try {
      fd = fs.openSync(path.join(folder.dir, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
      if (code === "ELOOP" || code === "EMLINK") return { kind: "link", link: relative, target: this.linkTarget(relative) };
      throw error;
    }
    try {
      const stats = fs.fstatSync(fd);
      if (!stats.isFile()) return { kind: "refused", reason: `is ${stats.isDirectory() ? "a folder" : "not a regular file (a pipe, socket or device)"}: memd reads only files` };
      if (stats.size > this.maxFileBytes) {
        return { kind: "refused", reason: `is ${stats.size} bytes, more than the ${this.maxFileBytes} a memory's file can hold: memd does not read it` };
      }
      return { kind: "text", text: fs.readFileSync(fd, "utf8"), mtimeMs: stats.mtimeMs };
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The mode of the regular file at `file` (undefined when there is none); a link or a folder there is refused. */
  private regularFileMode(file: string, relative: string): number | undefined {
    const stats = lstatOrNull(file);
    if (stats === null) return undefined;
    if (stats.isSymbolicLink()) throw new VaultPathError(relative, true, `${relative} is a symbolic link: ${LINKS_REFUSED}, and leaves this one alone`);
    if (!stats.isFile()) throw new VaultPathError(relative, false, `${relative} is not a file: memd writes a memory's file there once it is gone`);
    return stats.mode & 0o777;
  }

}

function split(relative: string): { folder: string[]; name: string } {
  const parts = relative.split("/");
  const name = parts.pop() ?? "";
  return { folder: parts, name };
}
