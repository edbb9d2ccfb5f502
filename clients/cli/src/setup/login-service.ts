import path from "node:path";
import { LAUNCHD_LABEL, type InstallPaths, type SetupLocations } from "./locations.js";
import type { FileChange } from "./plan.js";

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

/** The systemd user unit that runs memd from login and restarts it after a crash. */
export function systemdUnit(paths: InstallPaths, memdHome: string | undefined): string {
  return [
    "# Written by memctl setup; memctl uninstall removes it.",
    "[Unit]",
    "Description=memd: long-term memory for AI coding agents",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${[paths.node, paths.daemon].map((word) => systemdWord(word, "ExecStart")).join(" ")}`,
    ...(memdHome === undefined ? [] : [`Environment=${systemdWord(`MEMD_HOME=${memdHome}`, "Environment")}`]),
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

/** The launchd agent: started at login, restarted unless it exited cleanly (memctl stop). */
export function launchdPlist(paths: InstallPaths, memdHome: string | undefined, logDir: string): string {
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
    `    ${string(paths.node)}`,
    `    ${string(paths.daemon)}`,
    "  </array>",
    ...(memdHome === undefined ? [] : ["  <key>EnvironmentVariables</key>", "  <dict>", "    <key>MEMD_HOME</key>", `    ${string(memdHome)}`, "  </dict>"]),
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
  let after: string | null = null;
  if (paths !== undefined) {
    after = locations.platform === "linux" ? systemdUnit(paths, locations.memdHome) : launchdPlist(paths, locations.memdHome, locations.logDir);
  }
  const summary = before === after ? [] : [after === null ? `remove the ${name}` : before === null ? `write the ${name}` : `rewrite the ${name}`];
  return { target: "service", path: file, before, after, summary, backup: false, mode: 0o644 };
}
