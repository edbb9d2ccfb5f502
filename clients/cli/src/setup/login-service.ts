import path from "node:path";
import { LAUNCHD_LABEL, type InstallPaths, type SetupLocations } from "./locations.js";
import type { FileChange } from "./file-change.js";
import { DAEMON_NODE_OPTIONS } from "../../../transport/daemon-node-options.js";

const RESTART_SEC = 5;

/**
 * One ExecStart= or Environment= word, quoted when needed. % starts a specifier in both; $ starts
 * a variable only in ExecStart= (and is literal in Environment=).
 */
export function systemdWord(word: string, setting: "ExecStart" | "Environment"): string {
  const percent = word.replace(/%/g, "%%");
  const escaped = setting === "ExecStart" ? percent.replace(/\$/g, "$$$$") : percent;
  if (/^[A-Za-z0-9_\-./:+@=,%$]+$/.test(escaped)) return escaped;
  return `"${escaped.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/** The environment file as the unit names it: from %h when it lies in the home directory. */
export function unitEnvironmentFile(envFile: string, home: string): string {
  const escape = (file: string) => file.replace(/%/g, "%%");
  return envFile.startsWith(`${home}/`) ? `%h/${escape(envFile.slice(home.length + 1))}` : escape(envFile);
}

/**
 * The systemd user unit that runs memd from login and restarts it after a crash. `environment`
 * is the daemon's settings taken at setup; the environment file (optional, "-") holds secrets
 * and overrides them.
 */
export function systemdUnit(paths: InstallPaths, environment: readonly [string, string][], envFile: string): string {
  return [
    "# Written by memctl setup; memctl uninstall removes it.",
    "[Unit]",
    "Description=memd: long-term memory for AI coding agents",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${[paths.node, ...DAEMON_NODE_OPTIONS, paths.daemon].map((word) => systemdWord(word, "ExecStart")).join(" ")}`,
    "# Settings and secrets (OPENAI_API_KEY) as KEY=value lines; they override Environment= below.",
    `EnvironmentFile=-${envFile}`,
    ...environment.map(([name, value]) => `Environment=${systemdWord(`${name}=${value}`, "Environment")}`),
    "Restart=on-failure",
    `RestartSec=${RESTART_SEC}`,
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * launchd has no EnvironmentFile=: a POSIX shell loads the same optional file (secrets such as
 * OPENAI_API_KEY go there, never into the plist) and then becomes node, so launchd still
 * supervises the daemon itself. $1 is the file; the rest is the command.
 */
const LOAD_ENV_THEN_EXEC = 'if [ -f "$1" ]; then set -a; . "$1"; set +a; fi; shift; exec "$@"';

/** The launchd agent's program: the shell loading `envFile`, then node running the daemon. */
export function launchdProgram(paths: InstallPaths, envFile: string): string[] {
  return ["/bin/sh", "-c", LOAD_ENV_THEN_EXEC, "memd", envFile, paths.node, ...DAEMON_NODE_OPTIONS, paths.daemon];
}

/** The launchd agent: started at login, restarted unless it exited cleanly (memctl stop). */
export function launchdPlist(paths: InstallPaths, environment: readonly [string, string][], logDir: string, envFile: string): string {
  const string = (value: string) => `<string>${xml(value)}</string>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    "<!-- Written by memctl setup; memctl uninstall removes it. -->",
    '<plist version="1.0">',
    "<dict>",
    "  <key>Label</key>",
    `  ${string(LAUNCHD_LABEL)}`,
    "  <key>ProgramArguments</key>",
    "  <array>",
    ...launchdProgram(paths, envFile).map((arg) => `    ${string(arg)}`),
    "  </array>",
    ...(environment.length === 0
      ? []
      : ["  <key>EnvironmentVariables</key>", "  <dict>", ...environment.flatMap(([name, value]) => [`    <key>${xml(name)}</key>`, `    ${string(value)}`]), "  </dict>"]),
    "  <key>RunAtLoad</key>",
    "  <true/>",
    "  <key>KeepAlive</key>",
    "  <dict>",
    "    <key>SuccessfulExit</key>",
    "    <false/>",
    "  </dict>",
    "  <key>StandardOutPath</key>",
    `  ${string(path.join(logDir, "memd.stdout.log"))}`,
    "  <key>StandardErrorPath</key>",
    `  ${string(path.join(logDir, "memd.stderr.log"))}`,
    "</dict>",
    "</plist>",
    "",
  ].join("\n");
}

/** The service file for the platform (whole, owned by memd), or its removal. */
export function planLoginService(locations: SetupLocations, before: string | null, paths: InstallPaths | undefined): FileChange | null {
  if (locations.platform === null) return null;
  const file = locations.platform === "linux" ? locations.systemdUnit : locations.launchAgent;
  const name = locations.platform === "linux" ? "systemd user unit" : "launchd agent";
  const environment: [string, string][] = [...(locations.memdHome === undefined ? [] : [["MEMD_HOME", locations.memdHome] as [string, string]]), ...locations.serviceEnv];
  let after: string | null = null;
  if (paths !== undefined) {
    after =
      locations.platform === "linux"
        ? systemdUnit(paths, environment, unitEnvironmentFile(locations.envFile, locations.home))
        : launchdPlist(paths, environment, locations.logDir, locations.envFile);
  }
  const summary = before === after ? [] : [after === null ? `remove the ${name}` : before === null ? `write the ${name}` : `rewrite the ${name}`];
  return { target: "service", path: file, before, after, summary, backup: false, mode: 0o644 };
}
