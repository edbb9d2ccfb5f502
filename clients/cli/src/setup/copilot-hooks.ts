import { hookCommand, isMemdHook } from "./claude-settings.js";
import type { InstallPaths } from "./locations.js";
import type { FileChange } from "./file-change.js";
import { planOwnedFile } from "./owned-file.js";

/**
 * memd's hooks for GitHub Copilot CLI, in a file of their own among the user's hooks
 * (~/.copilot/hooks/memd.json, or $COPILOT_HOME/hooks/; github/docs
 * content/copilot/reference/hooks-reference.md): the briefing on sessionStart, the pointers on
 * userPromptSubmitted, a trace of each failed shell command (postToolUse, where a command's
 * non-zero exit arrives, and postToolUseFailure, for the shell tools by an anchored matcher), and
 * the session's events swept on sessionEnd and preCompact. The curl shim as `bash`, timeouts in seconds.
 */
export function copilotHooksText(paths: InstallPaths, memdHome: string | undefined): string {
  const hook = (arg: string, timeoutSec: number, matcher?: string) => [
    { type: "command", bash: hookCommand(paths, arg, memdHome, "copilot"), timeoutSec, ...(matcher === undefined ? {} : { matcher }) },
  ];
  const shells = "bash|powershell";
  const file = {
    version: 1,
    hooks: {
      sessionStart: hook("session-start", 10),
      userPromptSubmitted: hook("user-prompt-submitted", 5),
      postToolUse: hook("post-tool-use", 5, shells),
      postToolUseFailure: hook("post-tool-use-failure", 5, shells),
      sessionEnd: hook("session-end", 5),
      preCompact: hook("pre-compact", 10),
    },
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** True for a hooks file every command of which runs memd's shim: memd wrote it. */
function isMemdFile(text: string, installedHook: string | undefined): boolean {
  try {
    const parsed = JSON.parse(text) as { hooks?: Record<string, { bash?: unknown }[]> };
    const entries = Object.values(parsed.hooks ?? {}).flat();
    return entries.length > 0 && entries.every((entry) => isMemdHook({ type: "command", command: entry.bash }, installedHook));
  } catch {
    return false;
  }
}

/**
 * The file as setup wants it (`text`) or uninstall (null); a memd.json that memd did not write is
 * left alone. `installedHook` recognises this installation's hooks from a directory not named memd.
 */
export function planCopilotHooks(file: string, before: string | null, text: string | null, installedHook: string | undefined): FileChange {
  const ours = before === null || isMemdFile(before, installedHook);
  return planOwnedFile({ target: "copilot", path: file, before, wanted: text }, ours, "memd's hooks file", "holds hooks that are not memd's");
}
