#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { registerAdminCommands } from "./admin-commands.js";
import { registerCaptureCommand } from "./capture-command.js";
import { registerContradictionCommands } from "./contradiction-commands.js";
import { registerCorrectionCommands } from "./correction-commands.js";
import { intParser } from "./enums.js";
import { registerMaintenanceCommands } from "./maintenance-commands.js";
import { registerDaemonCommands } from "./daemon-commands.js";
import { registerDoctorCommand } from "./doctor-command.js";
import { registerMemoryCommands } from "./memory-commands.js";
import { registerMemoryFileCommands } from "./memory-file-commands.js";
import { registerHubCommands } from "./hub-commands.js";
import { registerInjectionsCommand } from "./injections-command.js";
import { registerVaultCommands } from "./vault-commands.js";
import { registerViewerCommands } from "./viewer-commands.js";
import { registerModelsCommand } from "./models-command.js";
import { registerReindexCommand } from "./reindex-command.js";
import { registerSkillCommands } from "./skill-commands.js";
import { registerSuggestCommand } from "./suggest-command.js";
import { registerSetupCommands } from "./setup-commands.js";
import { SLASH_ACTIONS, slashCommandArgs } from "./slash-command.js";

const program = new Command("memctl")
  .description("memctl: the command line for memd, long-term memory for AI coding agents")
  .option("--home <dir>", "memd's state directory (env MEMD_HOME, default ~/.memd)")
  .option("--json", "print JSON for scripts instead of readable text")
  .option("--timeout <ms>", "give up on a call after this many milliseconds", intParser)
  .addHelpText("after", "\nExit codes: 0 ok, 1 failure (including memd not running), 2 usage error.")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

// Output piped into `head` may be closed early; that is not a failure worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

registerMemoryCommands(program);
registerSuggestCommand(program);
registerInjectionsCommand(program);
registerCorrectionCommands(program);
registerContradictionCommands(program);
registerAdminCommands(program);
registerDaemonCommands(program);
registerReindexCommand(program);
registerModelsCommand(program);
registerMaintenanceCommands(program);
registerCaptureCommand(program);
registerMemoryFileCommands(program);
registerVaultCommands(program);
registerHubCommands(program);
registerViewerCommands(program);
registerSkillCommands(program);
registerSetupCommands(program);
registerDoctorCommand(program);
for (const command of program.commands) command.exitOverride();

program
  .command("slash [action]")
  .description(`what the /memd command of Claude Code and Codex runs: ${SLASH_ACTIONS.join(", ")} (default load)`)
  .action((given: string | undefined) => {
    program.error(`memctl slash takes one of ${SLASH_ACTIONS.join(", ")}; got "${given ?? ""}"`, { exitCode: 2, code: "memctl.slash" });
  });

/** The global options that take a value: the word after one is not a command. */
const VALUED_OPTIONS = new Set(["--home", "--timeout"]);

/** `slash <action>` runs the command it stands for; an action it does not know reaches the command above. */
function argvOf(argv: readonly string[]): string[] {
  let at = 2;
  while (at < argv.length && (argv[at] as string).startsWith("-")) at += VALUED_OPTIONS.has(argv[at] as string) ? 2 : 1;
  if (argv[at] !== "slash") return [...argv];
  const mapped = slashCommandArgs(argv.slice(at + 1));
  return mapped === null ? [...argv] : [...argv.slice(0, at), ...mapped];
}

try {
  await program.parseAsync(argvOf(process.argv));
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // Help and version are successes; everything else commander rejects is a usage error.
  const ok = ["commander.helpDisplayed", "commander.help", "commander.version"].includes(error.code);
  process.exitCode = ok ? 0 : 2;
}
