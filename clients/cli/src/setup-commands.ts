import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { InstructionsChannel } from "../../../gen/memd/v1/admin_service_pb.js";
import { healthPid } from "../../transport/daemon-start.js";
import { freeLoopbackPort } from "../../transport/free-port.js";
import { isDaemonDown } from "../../transport/daemon-down.js";
import { action, type CliContext, CliFailure } from "./context.js";
import { splitList } from "./enums.js";
import { agentsSectionBody, portableSocketPath } from "./setup/agents-md.js";
import { applyChanges, readContents } from "./setup/apply.js";
import { hookEndpoint } from "./setup/hook-endpoint.js";
import { installedPaths, missingEntryPoints, type SetupLocations, setupLocations } from "./setup/locations.js";
import { agentPresence } from "./setup/agent-targets.js";
import { changeKind, SETUP_TARGETS, type SetupTarget } from "./setup/file-change.js";
import { formatOutcome, outcomeJson, type SetupOutcome, type SkippedTarget } from "./setup/report.js";
import { activateService, deactivateService, forgetService, runCommand } from "./setup/service-activation.js";
import { planFiles, setupPlan, uninstallPlan } from "./setup/setup-plan.js";

interface SetupOptions {
  dryRun?: boolean;
  only?: SetupTarget[];
  agentsMd?: string;
  /** False with --no-start. */
  start: boolean;
  platform?: string;
  /** Whether a systemd instance runs, instead of looking (for tests). */
  systemd?: "yes" | "no";
}

/** Where systemd says it is running (sd_booted(3)); absent in containers, WSL1, OpenRC. */
const SYSTEMD_RUNTIME_DIR = "/run/systemd/system";

export function targetsParser(value: string): SetupTarget[] {
  const targets = splitList(value);
  const unknown = targets.filter((t) => !(SETUP_TARGETS as readonly string[]).includes(t));
  if (targets.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`expected a comma list of: ${SETUP_TARGETS.join(", ")}`);
  return [...new Set(targets)] as SetupTarget[];
}

function addSharedOptions(command: Command, verb: string): Command {
  return command
    .option("--dry-run", "print every change (file, what is added or removed, a diff) and write nothing")
    .option("--only <targets>", `only these, a comma list of: ${SETUP_TARGETS.join(", ")}`, targetsParser)
    .option("--agents-md <path>", `${verb} memd's section in this AGENTS.md (a directory means its AGENTS.md)`)
    .option("--no-start", "leave the login service's state alone (no systemctl or launchctl)")
    .addOption(new Option("--platform <platform>", "whose login service to write (for tests)").choices(["linux", "darwin"]).hideHelp())
    .addOption(new Option("--systemd <running>", "whether systemd runs here (for tests)").choices(["yes", "no"]).hideHelp());
}

export function registerSetupCommands(program: Command): void {
  addSharedOptions(
    program
      .command("setup")
      .description("wire memd into Claude Code (hooks, MCP), Codex, Cursor, Gemini CLI, Copilot CLI, OpenCode and a login service; running it again changes nothing"),
    "write or update",
  ).action(action(async (ctx, opts: SetupOptions, command: Command) => runSetup(ctx, opts, command)));

  addSharedOptions(program.command("uninstall").description("undo memctl setup: remove memd's hooks, MCP entries and login service, keep everything else"), "remove").action(
    action(async (ctx, opts: SetupOptions, command: Command) => runUninstall(ctx, opts, command)),
  );
}

export function locationsFor(command: Command, opts: Pick<SetupOptions, "platform">): SetupLocations {
  const global = command.optsWithGlobals<{ home?: string }>();
  return setupLocations(process.env, os.homedir(), opts.platform ?? process.platform, global.home);
}

function agentsMdFile(option: string | undefined): string | undefined {
  if (option === undefined) return undefined;
  const resolved = path.resolve(option);
  return fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory() ? path.join(resolved, "AGENTS.md") : resolved;
}

export function systemdRuns(opts: Pick<SetupOptions, "systemd">): boolean {
  return opts.systemd === undefined ? fs.existsSync(SYSTEMD_RUNTIME_DIR) : opts.systemd === "yes";
}

export const NO_SYSTEMD = `no systemd runs on this machine (${SYSTEMD_RUNTIME_DIR} does not exist: a container, WSL1 or another init system)`;

/** Why this machine has no login service for setup to write, or null. */
function noServiceReason(loc: SetupLocations, systemd: boolean): string | null {
  if (loc.platform === null) return `no login service on ${process.platform} (systemd on Linux, launchd on macOS)`;
  if (loc.platform === "linux" && !systemd) return `${NO_SYSTEMD}; start memd with 'memctl start' instead`;
  return null;
}

/**
 * Targets to set up: those named by --only, else the agents found on this machine and the
 * service (unless noService says why there is none).
 */
function chooseTargets(
  loc: SetupLocations,
  only: SetupTarget[] | undefined,
  detect: boolean,
  noService: string | null,
): { targets: SetupTarget[]; skipped: SkippedTarget[] } {
  const skipped: SkippedTarget[] = [];
  const targets = (only ?? [...SETUP_TARGETS]).filter((target) => {
    if (target === "service" && noService !== null) {
      skipped.push({ target, reason: noService });
      return false;
    }
    if (only !== undefined || !detect || target === "service") return true;
    const presence = agentPresence(loc, target);
    if (!presence.installed) skipped.push({ target, reason: `${presence.where} does not exist (add --only ${target} to set it up anyway)` });
    return presence.installed;
  });
  return { targets, skipped };
}

async function runSetup(ctx: CliContext, opts: SetupOptions, command: Command): Promise<void> {
  const loc = locationsFor(command, opts);
  const paths = installedPaths();
  const missing = missingEntryPoints(paths);
  if (missing.length > 0) {
    throw new CliFailure(`this memd installation is not built (missing ${missing.join(", ")}); run 'npm run build' in the memd directory and run setup again. Nothing was changed.`);
  }
  const systemd = systemdRuns(opts);
  if (opts.only?.includes("service") && loc.platform === "linux" && !systemd) {
    throw new CliFailure(`cannot set up the login service: ${NO_SYSTEMD}. Start memd with 'memctl start' instead. Nothing was changed.`);
  }
  const { targets, skipped } = chooseTargets(loc, opts.only, true, noServiceReason(loc, systemd));
  const agentsMdPath = agentsMdFile(opts.agentsMd);
  const body = agentsMdPath === undefined ? undefined : await fetchSectionBody(ctx);
  const contents = readContents(planFiles(loc, targets, agentsMdPath));
  const http = targets.includes("claude") && targets.includes("service");
  const endpoint = http
    ? hookEndpoint(contents.get(loc.hookEndpoint.listenFile) ?? null, contents.get(loc.hookEndpoint.tokenFile) ?? null, await freeLoopbackPort(), randomBytes(32).toString("hex"))
    : undefined;
  const changes = setupPlan({ locations: loc, targets, contents, agentsMdPath, hookEndpoint: endpoint }, paths, body);
  const outcome: SetupOutcome = { command: "setup", dryRun: opts.dryRun === true, changes, backups: new Map(), skipped, service: null, claudeHooks: null };
  if (targets.includes("claude")) {
    outcome.claudeHooks = endpoint
      ? `http hooks on 127.0.0.1:${endpoint.port}, since the login service keeps memd running (SessionStart takes no http hook: it runs the curl shim)`
      : `command hooks through the curl shim, since no login service keeps memd listening (${skipped.find((s) => s.target === "service")?.reason ?? "the service is not set up in this run"})`;
  }
  if (!outcome.dryRun) {
    // MEMD_HOME is private; the daemon would create it so, and setup may come first.
    if (endpoint) fs.mkdirSync(path.dirname(loc.hookEndpoint.listenFile), { recursive: true, mode: 0o700 });
    outcome.backups = backupsOf(applyChanges(changes, new Date()));
    const service = changes.find((c) => c.target === "service");
    // A daemon started before the port was recorded listens only once it restarts.
    const listenChanged = changes.some((c) => c.path === loc.hookEndpoint.listenFile && changeKind(c) !== "unchanged");
    if (service && loc.platform !== null) {
      outcome.service = opts.start
        ? activateService(
            { platform: loc.platform, file: service.path, rewritten: changeKind(service) === "update" || listenChanged, runningPid: await healthPid(ctx.clients), uid: process.getuid?.() ?? 0, logDir: loc.logDir },
            runCommand,
          )
        : "not enabled or started (--no-start)";
    }
  }
  finish(ctx, outcome, loc.home);
}

async function runUninstall(ctx: CliContext, opts: SetupOptions, command: Command): Promise<void> {
  const loc = locationsFor(command, opts);
  // A unit written where systemd ran before (WSL2 switched back, say) is still removed.
  const { targets, skipped } = chooseTargets(loc, opts.only, false, noServiceReason(loc, true));
  const agentsMdPath = agentsMdFile(opts.agentsMd);
  const changes = uninstallPlan({ locations: loc, targets, contents: readContents(planFiles(loc, targets, agentsMdPath)), agentsMdPath }, installedPaths().hook);
  const outcome: SetupOutcome = { command: "uninstall", dryRun: opts.dryRun === true, changes, backups: new Map(), skipped, service: null, claudeHooks: null };
  if (!outcome.dryRun) {
    const service = changes.find((c) => c.target === "service" && changeKind(c) === "delete");
    const platform = loc.platform;
    const managerRuns = platform === "darwin" || systemdRuns(opts);
    const deactivated = service && platform !== null && opts.start && managerRuns ? deactivateService(platform, process.getuid?.() ?? 0, runCommand) : null;
    outcome.backups = backupsOf(applyChanges(changes, new Date()));
    if (deactivated && platform !== null) {
      const forgotten = forgetService(platform, runCommand);
      outcome.service = { ok: deactivated.ok && forgotten.ok, lines: [...deactivated.lines, ...forgotten.lines] };
    } else if (service) {
      outcome.service = opts.start ? `file removed; nothing to stop, as ${NO_SYSTEMD}` : "files removed without stopping the service (--no-start)";
    }
  }
  finish(ctx, outcome, loc.home);
}

function backupsOf(applied: ReturnType<typeof applyChanges>): Map<string, string | null> {
  return new Map(applied.map((a) => [a.change.path, a.backup]));
}

function finish(ctx: CliContext, outcome: SetupOutcome, home: string): void {
  if (ctx.json) ctx.printJson(outcomeJson(outcome));
  else for (const line of formatOutcome(outcome, home)) ctx.print(line);
  const service = outcome.service;
  if (service !== null && typeof service !== "string" && !service.ok) {
    throw new CliFailure(
      outcome.command === "setup"
        ? "the login service could not be enabled (see above); its file is in place. Start memd with 'memctl start', or run again with --no-start to skip this step"
        : "the login service could not be stopped (see above); its file was removed anyway. Stop memd with 'memctl stop'",
    );
  }
}

/** The AGENTS.md section: the daemon owns the instructions, so it must be running. */
async function fetchSectionBody(ctx: CliContext): Promise<string> {
  try {
    const cli = await ctx.clients.admin.instructions({ channel: InstructionsChannel.CLI });
    const curl = await ctx.clients.admin.instructions({ channel: InstructionsChannel.CURL });
    return portableSocketPath(agentsSectionBody(cli.text, curl.text), ctx.endpoint.socketPath, os.homedir());
  } catch (error) {
    if (!isDaemonDown(error)) throw error;
    throw new CliFailure(
      `--agents-md takes the agent instructions from the daemon, and memd is not running (nothing answers on ${ctx.endpoint.socketPath}); ` +
        "start it with 'memctl start' (or run 'memctl setup' first, which starts it as a login service) and run again. Nothing was changed.",
      { cause: error },
    );
  }
}

