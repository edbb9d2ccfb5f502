/** The places `memctl setup` wires memd into; --only picks among them. */
export const SETUP_TARGETS = ["claude", "codex", "cursor", "gemini", "copilot", "opencode", "service"] as const;
export type SetupTarget = (typeof SETUP_TARGETS)[number];

/**
 * One file that setup or uninstall would change, computed from its current content. `before`
 * is null when the file does not exist; `after` is null when it is to be removed. A change
 * whose after equals its before is "unchanged" and is never written.
 */
export interface FileChange {
  /** What the file belongs to, for the report: a target or "agents-md". */
  target: SetupTarget | "agents-md";
  path: string;
  before: string | null;
  after: string | null;
  /** Human lines saying what is added, updated or removed. */
  summary: string[];
  /**
   * Whether to copy an existing file aside before changing it. Files that memd writes whole
   * (the unit, the plist) and the delimited AGENTS.md section (the rest stays byte for byte,
   * and the file usually lives in git) need none.
   */
  backup: boolean;
  /** Mode for a file that does not exist yet; an existing file keeps its own. */
  mode: number;
}

/**
 * Two plans for one file as one change: `second` was planned over what `first` leaves (its
 * `after`), so that the file is written once, from its content before either.
 */
export function combineChanges(first: FileChange, second: FileChange): FileChange {
  return { ...first, after: second.after, summary: [...first.summary, ...second.summary], backup: first.backup || second.backup };
}

export type ChangeKind = "create" | "update" | "delete" | "unchanged";

export function changeKind(change: FileChange): ChangeKind {
  if (change.before === change.after) return "unchanged";
  if (change.before === null) return "create";
  if (change.after === null) return "delete";
  return "update";
}

/** Why setup refuses to plan: the message names the file and says what to do. */
export class SetupError extends Error {
  override readonly name = "SetupError";
}

/** A timestamp for backup names, e.g. 20260305T101112Z, from an explicit clock. */
export function backupStamp(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");
}
