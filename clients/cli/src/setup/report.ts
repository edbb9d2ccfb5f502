import path from "node:path";
import { changeKind, type ChangeKind, type FileChange, type SetupTarget } from "./file-change.js";
import type { ActivationReport } from "./service-activation.js";
import { compactDiff } from "./text-diff.js";

export interface SkippedTarget {
  target: SetupTarget;
  reason: string;
}

/** Everything a setup or uninstall run did (or, for a dry run, would do). */
export interface SetupOutcome {
  command: "setup" | "uninstall";
  dryRun: boolean;
  changes: readonly FileChange[];
  /** Backup path per changed file path (real runs). */
  backups: ReadonlyMap<string, string | null>;
  skipped: readonly SkippedTarget[];
  /** Service activation or deactivation; a string says why it did not run. */
  service: ActivationReport | string | null;
  /** Which kind of Claude Code hooks setup chose, and why; null when Claude Code is not set up. */
  claudeHooks: string | null;
}

const DRY_WORDS: Record<ChangeKind, string> = { create: "would create", update: "would update", delete: "would remove", unchanged: "unchanged" };
const DONE_WORDS: Record<ChangeKind, string> = { create: "created", update: "updated", delete: "removed", unchanged: "unchanged" };

/** The outcome for --json: absolute paths, and each diff as a list of lines in a dry run. */
export function outcomeJson(outcome: SetupOutcome): unknown {
  return {
    command: outcome.command,
    dryRun: outcome.dryRun,
    changed: outcome.changes.filter((c) => changeKind(c) !== "unchanged").length,
    files: outcome.changes.map((c) => ({
      target: c.target,
      path: c.path,
      action: changeKind(c),
      summary: c.summary,
      backup: outcome.backups.get(c.path) ?? null,
      ...(outcome.dryRun && changeKind(c) !== "unchanged" ? { diff: compactDiff(c.before, c.after) } : {}),
    })),
    skipped: outcome.skipped,
    claudeHooks: outcome.claudeHooks,
    service: outcome.service === null ? null : typeof outcome.service === "string" ? { ok: true, lines: [outcome.service] } : outcome.service,
  };
}

/** A short human list per target of what changed (or would), with diffs in a dry run. */
export function formatOutcome(outcome: SetupOutcome, home: string): string[] {
  const shown = (file: string) => (file === home || file.startsWith(`${home}${path.sep}`) ? `~${file.slice(home.length)}` : file);
  const words = outcome.dryRun ? DRY_WORDS : DONE_WORDS;
  const indent = " ".repeat(11);
  const out: string[] = [];
  if (outcome.dryRun) out.push(`memctl ${outcome.command} --dry-run: nothing is written`);
  for (const change of outcome.changes) {
    const kind = changeKind(change);
    out.push(`${change.target.padEnd(10)} ${shown(change.path)}: ${words[kind]}`);
    for (const line of change.summary) out.push(`${indent}${line}`);
    if (outcome.dryRun && kind !== "unchanged") for (const line of compactDiff(change.before, change.after)) out.push(`${indent}${line}`);
    const backup = outcome.backups.get(change.path);
    if (backup) out.push(`${indent}backup: ${shown(backup)}`);
  }
  if (outcome.claudeHooks !== null) out.push(`${"claude".padEnd(10)} ${outcome.claudeHooks}`);
  if (typeof outcome.service === "string") out.push(`${"service".padEnd(10)} ${outcome.service}`);
  else if (outcome.service !== null) for (const line of outcome.service.lines) out.push(`${"service".padEnd(10)} ${line}`);
  for (const skip of outcome.skipped) out.push(`skipped ${skip.target}: ${skip.reason}`);
  const count = outcome.changes.filter((c) => changeKind(c) !== "unchanged").length;
  if (count === 0) out.push("nothing to change");
  else if (outcome.dryRun) out.push(`${count} file${count === 1 ? "" : "s"} would change; run without --dry-run to apply`);
  else out.push(`${count} file${count === 1 ? "" : "s"} changed`);
  return out;
}
