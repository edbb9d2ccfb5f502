import { hookCommand, type HookSpec, planHooks } from "./claude-settings.js";
import type { InstallPaths } from "./locations.js";
import type { FileChange } from "./file-change.js";

/**
 * memd's hooks in Codex's hooks.json (CODEX_HOME/hooks.json, the same shape as Claude Code's
 * hooks): the briefing at session start on every source, the pointers for each prompt, and the
 * rollout swept at the end of each turn (Stop; Codex has no session end) and before compaction.
 * Codex sends Claude Code's payload fields and reads its output, to the daemon's codex routes.
 */
export const CODEX_HOOKS: readonly HookSpec[] = [
  { event: "SessionStart", arg: "session-start", timeout: 10 },
  { event: "UserPromptSubmit", arg: "user-prompt-submit", timeout: 5 },
  { event: "Stop", arg: "stop", timeout: 5 },
  { event: "PreCompact", arg: "pre-compact", timeout: 10 },
];

/** Setup: memd's hooks merged into hooks.json, every other hook and key kept. */
export function planCodexHooks(file: string, before: string | null, paths: InstallPaths, memdHome: string | undefined): FileChange {
  const wanted = CODEX_HOOKS.map((spec) => ({
    event: spec.event,
    group: { hooks: [{ type: "command", command: hookCommand(paths, spec.arg, memdHome, "codex"), timeout: spec.timeout }] },
  }));
  return planHooks(file, before, wanted, paths.hook, "codex");
}

/** Uninstall: memd's hooks taken out of hooks.json. */
export function planCodexHooksRemoval(file: string, before: string | null, installedHook?: string): FileChange {
  return planHooks(file, before, [], installedHook, "codex");
}
