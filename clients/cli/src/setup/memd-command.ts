import type { InstallPaths } from "./locations.js";
import type { FileChange } from "./file-change.js";
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

const DESCRIPTION = "memd, long-term memory. load (the default) briefs on this project; stats, clean, compact, health, start";

/** A command file: memd's marker and the frontmatter (`head` keys, then `extra`), then the body. */
function commandFile(head: readonly string[], extra: readonly string[], body: readonly string[]): string {
  return ["---", MARKER, ...head, ...extra, "---", ...body, ""].join("\n");
}

/** A /memd body that runs memctl before the model sees the command (a `!` line) and asks the model to show what it printed. */
function runningBody(command: string): string[] {
  return [`!\`${command} $ARGUMENTS\``, "", "Above is what memd answered to `/memd $ARGUMENTS`. Show it to the user as it is. If it says memd is not running, suggest `/memd start`."];
}

/** Claude Code's /memd: memctl runs before the model sees the command (allowed for this one command only). */
export function claudeCommandText(paths: InstallPaths, memdHome: string | undefined): string {
  const command = slashCommand(paths, memdHome);
  return commandFile([`description: ${DESCRIPTION}`, `argument-hint: "[${ACTIONS}]"`], [`allowed-tools: Bash(${command}:*)`], runningBody(command));
}

/** OpenCode's /memd (commands/memd.md): OpenCode runs the `!` line's command when the command is used, as Claude Code does. */
export function openCodeCommandText(paths: InstallPaths, memdHome: string | undefined): string {
  return commandFile([`description: ${DESCRIPTION}`, `argument-hint: "[${ACTIONS}]"`], [], runningBody(slashCommand(paths, memdHome)));
}

/**
 * Codex's memd skill ($CODEX_HOME/skills/memd/SKILL.md): current Codex reads no custom prompts
 * (a /prompts:memd went to the model as text), and gives a skill to the model when the user names
 * it (`$memd stats`) or the task matches its description. Codex runs no command itself, so the
 * skill asks the model to run memctl and show what it printed.
 */
export function codexSkillText(paths: InstallPaths, memdHome: string | undefined): string {
  const command = slashCommand(paths, memdHome);
  return commandFile(
    ["name: memd", `description: ${DESCRIPTION}. Use when the user says $memd, /memd or memd with one of these words.`],
    [],
    [
      "# memd",
      "",
      `Run \`${command} ACTION\` in the shell, where ACTION is the word the user gave after memd (load when none), and show the user its output as it is.`,
      `If it says memd is not running, run \`${command} start\`.`,
    ],
  );
}

/**
 * The command file as setup wants it (`text`) or uninstall (null). A file of the same name
 * that memd did not write is the user's own command, and is left alone either way.
 */
export function planCommandFile(target: "claude" | "codex" | "opencode", file: string, before: string | null, text: string | null, what: string): FileChange {
  const ours = before === null || before.includes(MARKER) || before.includes(LEGACY_MARKER);
  return planOwnedFile({ target, path: file, before, wanted: text }, ours, what, `is not memd's (it has no "${MARKER}" line)`);
}
