import { hookCommand, planHooks } from "./claude-settings.js";
import type { InstallPaths } from "./locations.js";
import type { FileChange } from "./file-change.js";

/**
 * memd's hooks in Gemini CLI's ~/.gemini/settings.json (the same event → matcher groups → hooks
 * shape as Claude Code's, timeouts in milliseconds; google-gemini/gemini-cli docs/hooks/reference.md):
 * the briefing on SessionStart, the pointers on BeforeAgent (which fires when a prompt is
 * submitted), a trace of each failed shell command on AfterTool (its matcher an unanchored
 * regular expression over the tool's name), and the chat recording swept on SessionEnd. Not on
 * PreCompress: Gemini CLI 0.61 fires it before every model turn, compressing or not (three sweeps
 * in a three-turn session), and compression leaves the chat recording whole, so the sweep at
 * SessionEnd still reads everything.
 */
const GEMINI_HOOKS: readonly { event: string; arg: string; timeoutMs: number; matcher?: string }[] = [
  { event: "SessionStart", arg: "session-start", timeoutMs: 10_000 },
  { event: "BeforeAgent", arg: "before-agent", timeoutMs: 5_000 },
  { event: "AfterTool", arg: "after-tool", timeoutMs: 5_000, matcher: "^run_shell_command$" },
  { event: "SessionEnd", arg: "session-end", timeoutMs: 5_000 },
];

/** Setup: memd's hooks merged into settings.json, every other hook and setting kept. */
export function planGeminiHooks(file: string, before: string | null, paths: InstallPaths, memdHome: string | undefined): FileChange {
  const wanted = GEMINI_HOOKS.map((spec) => ({
    event: spec.event,
    group: {
      ...(spec.matcher === undefined ? {} : { matcher: spec.matcher }),
      hooks: [{ type: "command", name: "memd", command: hookCommand(paths, spec.arg, memdHome, "gemini"), timeout: spec.timeoutMs }],
    },
  }));
  return planHooks(file, before, wanted, paths.hook, "gemini");
}

/** Uninstall: memd's hooks taken out of settings.json. */
export function planGeminiHooksRemoval(file: string, before: string | null, installedHook?: string): FileChange {
  return planHooks(file, before, [], installedHook, "gemini");
}
