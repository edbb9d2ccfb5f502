import type { InstallPaths } from "./locations.js";
import type { FileChange } from "./plan.js";
import { planOwnedFile } from "./owned-file.js";
import { shellQuote } from "./shell-quote.js";

/**
 * The line that makes a command file memd's: setup rewrites and uninstall removes only files that
 * carry it. A YAML comment in the frontmatter, which the agents drop: the HTML comment earlier
 * setups wrote in the body (LEGACY_MARKER, still recognised) was sent to the model verbatim.
 */
const MARKER = "# Written by memctl setup; memctl uninstall removes it.";
const LEGACY_MARKER = "<!-- Written by memctl setup; memctl uninstall removes it. -->";
const ACTIONS = "load|stats|clean|compact|health|start";

/** The shell command the /memd file runs: absolute node and memctl, MEMD_HOME only when chosen. */
function slashCommand(paths: InstallPaths, memdHome: string | undefined): string {
  const words = [shellQuote(paths.node), shellQuote(paths.cli), "slash"];
  return memdHome === undefined ? words.join(" ") : `MEMD_HOME=${shellQuote(memdHome)} ${words.join(" ")}`;
}

/** A command file: memd's marker and the frontmatter both agents read (plus `extra` keys), then the body. */
function commandFile(extra: readonly string[], body: readonly string[]): string {
  const description = "description: memd, long-term memory. load (the default) briefs on this project; stats, clean, compact, health, start";
  return ["---", MARKER, description, `argument-hint: "[${ACTIONS}]"`, ...extra, "---", ...body, ""].join("\n");
}

/** A /memd body that runs memctl before the model sees the command (a `!` line) and asks the model to show what it printed. */
function runningBody(command: string): string[] {
  return [`!\`${command} $ARGUMENTS\``, "", "Above is what memd answered to `/memd $ARGUMENTS`. Show it to the user as it is. If it says memd is not running, suggest `/memd start`."];
}

/** Claude Code's /memd: memctl runs before the model sees the command (allowed for this one command only). */
export function claudeCommandText(paths: InstallPaths, memdHome: string | undefined): string {
  const command = slashCommand(paths, memdHome);
  return commandFile([`allowed-tools: Bash(${command}:*)`], runningBody(command));
}

/** OpenCode's /memd (commands/memd.md): OpenCode runs the `!` line's command when the command is used, as Claude Code does. */
export function openCodeCommandText(paths: InstallPaths, memdHome: string | undefined): string {
  return commandFile([], runningBody(slashCommand(paths, memdHome)));
}

/** Codex's memd prompt (/prompts:memd): Codex runs no command itself, so the prompt asks the model to. */
export function codexPromptText(paths: InstallPaths, memdHome: string | undefined): string {
  const command = slashCommand(paths, memdHome);
  return commandFile([], [`Run \`${command} $ARGUMENTS\` in the shell and show the user its output as it is. If it says memd is not running, run \`${command} start\`.`]);
}

/**
 * The command file as setup wants it (`text`) or uninstall (null). A file of the same name
 * that memd did not write is the user's own command, and is left alone either way.
 */
export function planCommandFile(target: "claude" | "codex" | "opencode", file: string, before: string | null, text: string | null, what: string): FileChange {
  const ours = before === null || before.includes(MARKER) || before.includes(LEGACY_MARKER);
  return planOwnedFile({ target, path: file, before, wanted: text }, ours, what, `is not memd's (it has no "${MARKER}" line)`);
}
