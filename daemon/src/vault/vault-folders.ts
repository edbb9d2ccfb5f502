import fs from "node:fs";
import path from "node:path";

/**
 * The vault's folders opened without following a link (see vault-files.ts). On Linux a folder
 * stays open while it is used and the names in it are reached through /proc/self/fd/<fd>/<name>,
 * which resolves against that open folder as openat(2) does (Node has no openat): a folder
 * swapped for a link between memd's check and its write cannot redirect the write. Elsewhere
 * (macOS) each folder is checked with lstat on the way down, which leaves a window of a few
 * system calls between the check and the use.
 */

/** Why memd leaves a symbolic link in its vault alone, in every message about one. */
export const LINKS_REFUSED = "memd neither reads nor writes through links in its vault";

/** A symbolic link, or a file, where memd needs a folder (or a link where it writes a file). */
export class VaultPathError extends Error {
  constructor(
    /** The path of the link or file in the way, relative to the vault. */
    readonly at: string,
    readonly link: boolean,
    message: string,
  ) {
    super(message);
  }
}

const PROC_FD = "/proc/self/fd";
const HAS_PROC_FD = fs.existsSync(PROC_FD);
const { O_RDONLY, O_NOFOLLOW, O_DIRECTORY } = fs.constants;

/** An open folder of the vault: `dir` names it for path operations while it is open. */
export interface Folder {
  dir: string;
  close(): void;
}

/**
 * Opens the folder at `parts` below `root`, one name at a time and following no link; null when
 * it does not exist (and `create` is false). Throws VaultPathError at a link or a file on the way.
 */
export function openVaultFolder(root: string, parts: readonly string[], create: boolean): Folder | null {
  return HAS_PROC_FD ? openByDescriptor(root, parts, create) : openByPath(root, parts, create);
}

function openByDescriptor(root: string, parts: readonly string[], create: boolean): Folder | null {
  if (create) fs.mkdirSync(root, { recursive: true });
  let fd: number;
  try {
    fd = fs.openSync(root, O_RDONLY | O_DIRECTORY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  for (const [i, name] of parts.entries()) {
    const at = parts.slice(0, i + 1).join("/");
    const inner = `${PROC_FD}/${fd}/${name}`;
    let next: number | null = null;
    try {
      next = openFolderNoFollow(inner, at);
      if (next === null && create) {
        try {
          fs.mkdirSync(inner);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        }
        next = openFolderNoFollow(inner, at);
      }
    } finally {
      fs.closeSync(fd);
    }
    if (next === null) return null;
    fd = next;
  }
  const held = fd;
  return { dir: `${PROC_FD}/${held}`, close: () => fs.closeSync(held) };
}

function openByPath(root: string, parts: readonly string[], create: boolean): Folder | null {
  if (create) fs.mkdirSync(root, { recursive: true });
  let dir = fs.realpathSync(root);
  for (const [i, name] of parts.entries()) {
    dir = path.join(dir, name);
    const at = parts.slice(0, i + 1).join("/");
    let stats = lstatOrNull(dir);
    if (stats === null && create) {
      try {
        fs.mkdirSync(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      stats = lstatOrNull(dir);
    }
    if (stats === null) return null;
    checkFolder(stats, at);
  }
  return { dir, close: () => undefined };
}

/** A folder opened without following a link; null when nothing is there. */
function openFolderNoFollow(file: string, at: string): number | null {
  try {
    return fs.openSync(file, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    // ELOOP: the name is a link. ENOTDIR: a file (or a link, on some systems) where a folder must be.
    if (code === "ELOOP" || code === "EMLINK" || code === "ENOTDIR") checkFolder(lstatOrNull(file), at);
    throw error;
  }
}

function checkFolder(stats: fs.Stats | null, at: string): void {
  // Gone again since the open failed counts as a link: something is changing the path under memd.
  if (stats === null || stats.isSymbolicLink()) {
    throw new VaultPathError(at, true, `${at} is a symbolic link: ${LINKS_REFUSED}, and leaves this one alone`);
  }
  if (!stats.isDirectory()) throw new VaultPathError(at, false, `${at} is a file where memd keeps a folder: memd writes there once it is gone`);
}

export function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw error;
  }
}

