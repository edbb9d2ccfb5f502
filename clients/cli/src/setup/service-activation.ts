import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { LAUNCHD_LABEL, type ServicePlatform, SYSTEMD_UNIT } from "./locations.js";

export interface CommandResult {
  /** The exit code, or null when the command could not run at all. */
  code: number | null;
  /** Its stderr (or stdout, or why it could not run), trimmed. */
  output: string;
}

export type CommandRunner = (argv: readonly string[]) => CommandResult;

/** Runs a service manager command and waits for it (systemctl and launchctl return quickly). */
export const runCommand: CommandRunner = (argv) => {
  const result = spawnSync(argv[0] as string, argv.slice(1), { encoding: "utf8", timeout: 30_000 });
  if (result.error) return { code: null, output: result.error.message };
  return { code: result.status, output: (result.stderr.trim() || result.stdout.trim()).split("\n").slice(0, 3).join(" ") };
};

/** What activation or deactivation did, line by line; ok is false when a step failed. */
export interface ActivationReport {
  ok: boolean;
  lines: string[];
}

export interface ActivationInput {
  platform: ServicePlatform;
  /** The unit or plist. */
  file: string;
  /** Whether setup rewrote an existing file (a loaded service must pick up the new one). */
  rewritten: boolean;
  /** The pid of a daemon answering on the socket, if one does. */
  runningPid: number | null;
  uid: number;
  logDir: string;
}

function failed(argv: readonly string[], result: CommandResult, done: string[]): ActivationReport {
  const why = result.code === null ? `could not run: ${result.output}` : `exit ${result.code}${result.output ? `: ${result.output}` : ""}`;
  return { ok: false, lines: [...done, `${argv.join(" ")} failed (${why})`] };
}

/**
 * Enables and starts the login service. A daemon already running outside the service (memctl
 * start) is left alone: a second memd would exit at once (one per user) and be restarted over
 * and over, so the service takes over from the next login instead.
 */
export function activateService(input: ActivationInput, run: CommandRunner): ActivationReport {
  return input.platform === "linux" ? activateSystemd(input, run) : activateLaunchd(input, run);
}

function activateSystemd(input: ActivationInput, run: CommandRunner): ActivationReport {
  const lines: string[] = [];
  const steps: string[][] = [["systemctl", "--user", "daemon-reload"]];
  const serviceRuns = () => run(["systemctl", "--user", "is-active", "--quiet", SYSTEMD_UNIT]).code === 0;
  const outside = input.runningPid !== null && !serviceRuns();
  if (outside) steps.push(["systemctl", "--user", "enable", SYSTEMD_UNIT]);
  else steps.push(["systemctl", "--user", "enable", "--now", SYSTEMD_UNIT]);
  if (!outside && input.rewritten) steps.push(["systemctl", "--user", "try-restart", SYSTEMD_UNIT]);
  for (const argv of steps) {
    const result = run(argv);
    if (result.code !== 0) return failed(argv, result, lines);
    lines.push(`ran ${argv.join(" ")}`);
  }
  if (outside) {
    lines.push(`memd already runs (pid ${input.runningPid}) outside the service; the service starts it from the next login (to switch now: memctl stop && systemctl --user start ${SYSTEMD_UNIT})`);
  }
  return { ok: true, lines };
}

function activateLaunchd(input: ActivationInput, run: CommandRunner): ActivationReport {
  const domain = `gui/${input.uid}`;
  const service = `${domain}/${LAUNCHD_LABEL}`;
  const loaded = run(["launchctl", "print", service]).code === 0;
  // launchd does not create the directory of StandardErrorPath.
  fs.mkdirSync(input.logDir, { recursive: true, mode: 0o700 });
  if (loaded && !input.rewritten) return { ok: true, lines: [`${LAUNCHD_LABEL} is already loaded`] };
  if (!loaded && input.runningPid !== null) {
    return {
      ok: true,
      lines: [`memd already runs (pid ${input.runningPid}) outside launchd; launchd starts it from the next login (to switch now: memctl stop && launchctl bootstrap ${domain} ${input.file})`],
    };
  }
  const steps = [...(loaded ? [["launchctl", "bootout", service]] : []), ["launchctl", "bootstrap", domain, input.file]];
  const lines: string[] = [];
  for (const argv of steps) {
    const result = run(argv);
    if (result.code !== 0) return failed(argv, result, lines);
    lines.push(`ran ${argv.join(" ")}`);
  }
  return { ok: true, lines };
}

/** Stops and disables the service; run before its file is removed. */
export function deactivateService(platform: ServicePlatform, uid: number, run: CommandRunner): ActivationReport {
  if (platform === "darwin") {
    const service = `gui/${uid}/${LAUNCHD_LABEL}`;
    if (run(["launchctl", "print", service]).code !== 0) return { ok: true, lines: [`${LAUNCHD_LABEL} was not loaded`] };
    const argv = ["launchctl", "bootout", service];
    const result = run(argv);
    return result.code === 0 ? { ok: true, lines: [`ran ${argv.join(" ")}`] } : failed(argv, result, []);
  }
  const argv = ["systemctl", "--user", "disable", "--now", SYSTEMD_UNIT];
  const result = run(argv);
  return result.code === 0 ? { ok: true, lines: [`ran ${argv.join(" ")}`] } : failed(argv, result, []);
}

/** After the unit file is gone, systemd forgets it on a reload; launchd needs nothing. */
export function forgetService(platform: ServicePlatform, run: CommandRunner): ActivationReport {
  if (platform === "darwin") return { ok: true, lines: [] };
  const argv = ["systemctl", "--user", "daemon-reload"];
  const result = run(argv);
  return result.code === 0 ? { ok: true, lines: [`ran ${argv.join(" ")}`] } : failed(argv, result, []);
}
