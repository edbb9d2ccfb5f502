import type { FileChange, SetupTarget } from "./file-change.js";

/**
 * A file memd writes whole (a command file, Copilot's hooks file), as setup wants it (`wanted`)
 * or uninstall (null). A file of that name memd did not write (`ours` says) is the user's, and is
 * left alone either way. `what` names it in the summary; `notOurs` says how it was told apart.
 */
export function planOwnedFile(
  change: { target: SetupTarget; path: string; before: string | null; wanted: string | null },
  ours: boolean,
  what: string,
  notOurs: string,
): FileChange {
  const { target, path, before, wanted } = change;
  const after = ours ? wanted : before;
  let summary: string[] = [];
  if (!ours) summary = wanted === null ? [] : [`left alone: ${what} ${notOurs}`];
  else if (after === null && before !== null) summary = [`remove ${what}`];
  else if (before !== after) summary = [before === null ? `add ${what}` : `update ${what}`];
  return { target, path, before, after, summary, backup: false, mode: 0o644 };
}
