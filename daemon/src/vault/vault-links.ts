import type { Logger } from "../logger.js";
import { isKindFolderName, isMemoryFilePath } from "./file-name.js";
import type { VaultProblem } from "./rebuild-from-vault.js";

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

/** The symbolic links at memd's places in the vault, none followed, each said once in the log. */
export class LinksLeftAlone {
  private readonly links = new Map<string, string>();

  constructor(private readonly logger: Logger) {}

  /** A link at `relative` to `target`; "" when nothing is linked there (any more). */
  note(relative: string, target: string): void {
    if (target === "") {
      this.links.delete(relative);
      return;
    }
    if (this.links.get(relative) === target) return;
    this.links.set(relative, target);
    this.logger.warn({ path: relative, target }, "a symbolic link in the vault: memd does not follow it, and leaves it alone");
  }

  has(relative: string): boolean {
    return this.links.has(relative);
  }

  get size(): number {
    return this.links.size;
  }

  /** For the status: each link, where it points and why memd left it alone. */
  list(): VaultProblem[] {
    return [...this.links].slice(0, MAX_LINKS).map(([relative, target]) => ({
      path: relative,
      line: 0,
      reason: `a symbolic link to ${target}: memd neither reads nor writes through links in its vault, so it left this one alone (put the file or folder itself here to make it memd's)`,
    }));
  }
}
