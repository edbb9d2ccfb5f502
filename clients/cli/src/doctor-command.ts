import fs from "node:fs";
import { createClient } from "@connectrpc/connect";
import { type Command, Option } from "commander";
import { AdminService } from "../../../gen/memd/v1/admin_service_pb.js";
import { isDaemonDown } from "../../transport/daemon-down.js";
import { createTcpTransport } from "../../transport/transport.js";
import { action, type CliContext, CliFailure } from "./context.js";
import { locationsFor, NO_SYSTEMD, systemdRuns, targetsParser } from "./setup-commands.js";
import { agentPresence } from "./setup/agent-targets.js";
import { readContents } from "./setup/apply.js";
import { agentChecks, claudeHookEndpoint, type DoctorCheck, serviceFileChecks, shownPath } from "./setup/doctor.js";
import { installedPaths, LAUNCHD_LABEL, missingEntryPoints, type SetupLocations, SYSTEMD_UNIT } from "./setup/locations.js";
import { SETUP_TARGETS, type SetupTarget } from "./setup/file-change.js";
import { type CommandRunner, runCommand } from "./setup/service-activation.js";
import { planFiles } from "./setup/setup-plan.js";

interface DoctorOptions {
  only?: SetupTarget[];
  platform?: string;
  systemd?: "yes" | "no";
}

/** How long doctor waits for memd to answer before calling it unreachable. */
const ANSWER_WITHIN_MS = 3000;

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description(
      "check, agent by agent, that memd is wired as memctl setup writes it and will run (hooks, Codex's trust of them, MCP entries), the login service and the daemon; exits 1 when something is wrong",
    )
    .option("--only <targets>", `only these, a comma list of: ${SETUP_TARGETS.join(", ")}`, targetsParser)
    .addOption(new Option("--platform <platform>", "whose login service to check (for tests)").choices(["linux", "darwin"]).hideHelp())
    .addOption(new Option("--systemd <running>", "whether systemd runs here (for tests)").choices(["yes", "no"]).hideHelp())
    .action(action(async (ctx, opts: DoctorOptions, command: Command) => runDoctor(ctx, opts, command)));
}

async function runDoctor(ctx: CliContext, opts: DoctorOptions, command: Command): Promise<void> {
  const loc = locationsFor(command, opts);
  const paths = installedPaths();
  const targets = opts.only ?? [...SETUP_TARGETS];
  const contents = readContents(planFiles(loc, targets));
  const input = { locations: loc, contents, paths };
  const checks: DoctorCheck[] = [...(await daemonChecks(ctx, loc)), ...installationChecks(loc)];
  for (const target of targets) {
    if (target === "service") {
      checks.push(...serviceFileChecks(input));
      if (checks.at(-1)?.status === "ok") checks.push(...serviceStateChecks(loc, systemdRuns(opts), runCommand));
      continue;
    }
    const presence = agentPresence(loc, target);
    if (!presence.installed) {
      checks.push({ subject: target, status: "note", message: `not installed here (${shownPath(presence.where, loc.home)} does not exist)` });
      continue;
    }
    const found = agentChecks(target, input);
    checks.push(...found);
    const endpoint = target === "claude" ? claudeHookEndpoint(loc, contents) : undefined;
    if (endpoint !== undefined && found.some((check) => check.status !== "note")) checks.push(await hookPortCheck(ctx, endpoint.port));
  }
  report(ctx, checks);
}

function report(ctx: CliContext, checks: readonly DoctorCheck[]): void {
  const problems = checks.filter((check) => check.status === "problem").length;
  if (ctx.json) ctx.printJson({ ok: problems === 0, problems, checks });
  else {
    for (const check of checks) {
      ctx.print(`${check.subject.padEnd(9)} ${check.status.padEnd(8)} ${check.message}`);
      if (check.fix !== undefined && check.status !== "ok") ctx.print(`${" ".repeat(19)}fix: ${check.fix}`);
    }
    if (problems === 0) ctx.print("no problems found");
  }
  if (problems > 0) throw new CliFailure(`${problems} problem${problems === 1 ? "" : "s"} found${ctx.json ? "" : ": see the fix lines above"}`);
}

/** Whether memd answers on its socket. */
async function daemonChecks(ctx: CliContext, loc: SetupLocations): Promise<DoctorCheck[]> {
  const socket = shownPath(ctx.endpoint.socketPath, loc.home);
  try {
    const { health } = await ctx.clients.admin.health({}, { timeoutMs: ANSWER_WITHIN_MS });
    return [{ subject: "memd", status: "ok", message: `memd ${health?.version ?? ""} answers on ${socket} (pid ${health?.pid ?? "?"})` }];
  } catch (error) {
    const why = isDaemonDown(error) ? `nothing answers on ${socket}` : `${socket} did not answer Health: ${(error as Error).message}`;
    return [{ subject: "memd", status: "problem", message: `memd is not running (${why}): every agent's hooks fail open, and nothing is briefed or saved`, fix: "memctl start, or memctl setup --only service to start it at every login" }];
  }
}

/** This installation's entry points, which every hook, MCP entry and the service run. */
function installationChecks(loc: SetupLocations): DoctorCheck[] {
  const missing = missingEntryPoints(installedPaths());
  if (missing.length === 0) return [];
  const list = missing.map((file) => shownPath(file, loc.home)).join(", ");
  return [{ subject: "memd", status: "problem", message: `this memd installation is not built (missing ${list}): the hooks and MCP entries that point here cannot run`, fix: "npm run build in the memd directory" }];
}

/** Whether the service manager has the login service enabled and running. */
function serviceStateChecks(loc: SetupLocations, systemd: boolean, run: CommandRunner): DoctorCheck[] {
  if (loc.platform === "darwin") {
    const service = `gui/${process.getuid?.() ?? 0}/${LAUNCHD_LABEL}`;
    return run(["launchctl", "print", service]).code === 0
      ? [{ subject: "service", status: "ok", message: `${LAUNCHD_LABEL} is loaded` }]
      : [{ subject: "service", status: "problem", message: `${LAUNCHD_LABEL} is not loaded: memd will not start at login`, fix: `launchctl bootstrap gui/${process.getuid?.() ?? 0} ${loc.launchAgent}` }];
  }
  if (!systemd) return [{ subject: "service", status: "note", message: `cannot ask whether ${SYSTEMD_UNIT} is enabled: ${NO_SYSTEMD}` }];
  const enabled = run(["systemctl", "--user", "is-enabled", "--quiet", SYSTEMD_UNIT]).code === 0;
  const active = run(["systemctl", "--user", "is-active", "--quiet", SYSTEMD_UNIT]).code === 0;
  if (enabled && active) return [{ subject: "service", status: "ok", message: `${SYSTEMD_UNIT} is enabled and running` }];
  const state = [enabled ? "" : "not enabled (memd will not start at login)", active ? "" : "not running"].filter((part) => part !== "").join(" and ");
  return [{ subject: "service", status: "problem", message: `${SYSTEMD_UNIT} is ${state}`, fix: `systemctl --user enable --now ${SYSTEMD_UNIT}` }];
}

/**
 * Claude Code's http hooks post to 127.0.0.1:PORT: memd itself must answer there (asked for
 * Health with its token), or every hook fails open and memd sees nothing of the session.
 */
async function hookPortCheck(ctx: CliContext, port: number): Promise<DoctorCheck> {
  const where = `127.0.0.1:${port}`;
  const transport = createTcpTransport({ port, token: readToken(ctx.endpoint.tokenFile) });
  try {
    await createClient(AdminService, transport).health({}, { timeoutMs: ANSWER_WITHIN_MS });
    return { subject: "claude", status: "ok", message: `Claude Code's http hooks reach memd on ${where}` };
  } catch (error) {
    return {
      subject: "claude",
      status: "problem",
      message: `Claude Code's http hooks post to ${where}, where memd does not answer (${(error as Error).message.split("\n")[0]}): they fail open and memd sees nothing of the session`,
      fix: `restart memd so that it listens there (systemctl --user restart ${SYSTEMD_UNIT}, or memctl stop && memctl start)`,
    };
  }
}

function readToken(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
}

