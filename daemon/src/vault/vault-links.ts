import type { Logger } from "../logger.js";
import { isKindFolderName, isMemoryFilePath } from "./file-name.js";
import type { VaultProblem } from "./rebuild-from-vault.js";
import { LINKS_REFUSED } from "./vault-folders.js";

const MAX_LINKS = 1000;

/**
 * True for a path where a symbolic link concerns memd: a memory's file, a kind's folder, or a
 * top-level folder memd keeps files under (`keepsFilesUnder`). Links elsewhere (a person's notes)
 * are neither followed nor reported.
 */
export function isLinkPlace(relative: string, keepsFilesUnder: (project: string) => boolean): boolean {
  const parts = relative.split("/");
  return isMemoryFilePath(relative) || (parts.length === 2 && isKindFolderName(parts[1] as string)) || (parts.length === 1 && keepsFilesUnder(relative));
}

/**
 * The symbolic links at memd's places in the vault, none followed, each said once in the log.
 * A link is listed until a look at its path finds none there: it was removed, or a file or a
 * folder took its place (a git checkout does both at once), or a folder above it went.
 */
export class LinksLeftAlone {
  private readonly links = new Map<string, string>();

  constructor(
    private readonly logger: Logger,
    /** Where the link at a path points, read without following any link; "" when no link is there. */
    private readonly targetOf: (relative: string) => string,
  ) {}

  /** A link at `relative` to `target`, found by a listing or a read. */
  found(relative: string, target: string): void {
    if (this.links.get(relative) === target) return;
    // Past the limit a link is left alone as every other is, but neither kept nor logged: a pull of a million links costs nothing.
    if (this.links.size >= MAX_LINKS && !this.links.has(relative)) return;
    this.links.set(relative, target);
    this.logger.warn({ path: relative, target }, "a symbolic link in the vault: memd does not follow it, and leaves it alone");
  }

  /** No link is at `relative`: a file memd read, or nothing. */
  gone(relative: string): void {
    this.links.delete(relative);
  }

  /** Looks at `relative` again (an event named it); true when a link is there now. */
  look(relative: string): boolean {
    const target = this.targetOf(relative);
    if (target === "") this.gone(relative);
    else this.found(relative, target);
    return target !== "";
  }

  /** Looks again at each link listed at `relative` or below it: a folder there appeared or went. */
  lookUnder(relative: string): void {
    for (const listed of [...this.links.keys()]) if (listed === relative || listed.startsWith(`${relative}/`)) this.look(listed);
  }

  get size(): number {
    return this.links.size;
  }

  /** For the status: each link, where it points and why memd left it alone. */
  list(): VaultProblem[] {
    return [...this.links].map(([relative, target]) => ({
      path: relative,
      line: 0,
      reason: `a symbolic link to ${target}: ${LINKS_REFUSED}, so it left this one alone (put the file or folder itself here to make it memd's)`,
    }));
  }
}
