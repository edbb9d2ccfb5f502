import type { Logger } from "../logger.js";
import { redact } from "../redact/redact-secrets.js";
import type { VaultProblem } from "./rebuild-from-vault.js";

const MAX_PROBLEMS = 1000;

/**
 * The vault's files memd could not read as memories: each reported once per text (by hash) in
 * the log, listed by `memctl vault status`, and named once to an agent's briefing.
 */
export class UnreadableFiles {
  private readonly problems = new Map<string, VaultProblem & { hash: string }>();
  /** The problems a briefing already named, by path and the hash of the text that had them. */
  private readonly announced = new Set<string>();

  constructor(private readonly logger: Logger) {}

  /** A file memd could not read, with the line and why; `hash` is its text's (empty when none was read). */
  report(relative: string, line: number, unredacted: string, hash: string): void {
    // A reason may quote the file (`importance is the text "..."`), and it reaches logs and briefings.
    const reason = redact(unredacted);
    const known = this.problems.get(relative);
    if (known?.hash === hash && known.reason === reason) return;
    this.logger.warn({ path: relative, line, reason }, "vault file not read: left as it is");
    if (this.problems.size < MAX_PROBLEMS || known) this.problems.set(relative, { path: relative, line, reason, hash });
  }

  /** The file was read, or is gone. */
  clear(relative: string): void {
    this.problems.delete(relative);
  }

  get size(): number {
    return this.problems.size;
  }

  list(): VaultProblem[] {
    return [...this.problems.values()].map(({ path, line, reason }) => ({ path, line, reason }));
  }

  /**
   * A line for an agent's briefing naming the files memd could not read that no briefing named
   * yet (a file fixed and broken again counts again), or null when there are none.
   */
  takeNotice(): string | null {
    const fresh = [...this.problems.values()].filter((p) => !this.announced.has(`${p.path}\0${p.hash}`));
    if (fresh.length === 0) return null;
    for (const p of fresh) this.announced.add(`${p.path}\0${p.hash}`);
    const named = fresh.slice(0, 3).map((p) => `${p.path}${p.line > 0 ? `:${p.line}` : ""} (${p.reason})`).join("; ");
    const more = fresh.length > 3 ? `, and ${fresh.length - 3} more` : "";
    return `memd could not read ${fresh.length === 1 ? "a file" : `${fresh.length} files`} in its vault, left as written until fixed: ${named}${more}. Tell the user; \`memctl vault status\` lists them.`;
  }
}
