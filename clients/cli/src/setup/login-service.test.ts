import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { type InstallPaths, setupLocations } from "./locations.js";
import { launchdPlist, planLoginService, systemdUnit, systemdWord } from "./login-service.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js" };

describe("systemd user unit", () => {
  it("runs node on the daemon, restarts on failure and starts with the user's session", () => {
    const unit = systemdUnit(paths, undefined);
    expect(unit).toContain("\nExecStart=/usr/bin/node /opt/memd/dist/daemon/src/main.js\n");
    expect(unit).toContain("\nRestart=on-failure\nRestartSec=5\n");
    expect(unit).toContain("\n[Install]\nWantedBy=default.target\n");
    expect(unit).toMatch(/\nDescription=memd: .+\n/);
    expect(unit).not.toContain("Environment=");
  });

  it("sets MEMD_HOME only when the user chose one", () => {
    expect(systemdUnit(paths, "/data/memd")).toContain("\nEnvironment=MEMD_HOME=/data/memd\n");
  });

  it("quotes spaces and escapes specifiers and variables", () => {
    expect(systemdWord("/opt/my node/bin/node", "ExecStart")).toBe('"/opt/my node/bin/node"');
    expect(systemdWord("/a/100%/$HOME", "ExecStart")).toBe("/a/100%%/$$HOME");
    expect(systemdWord('MEMD_HOME=/a "b"/$x', "Environment")).toBe('"MEMD_HOME=/a \\"b\\"/$x"');
  });
});

describe("launchd agent", () => {
  it("is a plist with the label, program, RunAtLoad, KeepAlive unless a clean exit, and log files", () => {
    const plist = launchdPlist({ ...paths, node: "/opt/n&m/node" }, "/data/memd", "/data/memd/logs");
    const script = "import json, plistlib, sys; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))";
    expect(JSON.parse(execFileSync("python3", ["-c", script], { input: plist, encoding: "utf8" }))).toEqual({
      Label: "dev.memd.daemon",
      ProgramArguments: ["/opt/n&m/node", "/opt/memd/dist/daemon/src/main.js"],
      EnvironmentVariables: { MEMD_HOME: "/data/memd" },
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      StandardOutPath: "/data/memd/logs/memd.stdout.log",
      StandardErrorPath: "/data/memd/logs/memd.stderr.log",
    });
  });
});

describe("planning the service file", () => {
  it("writes the platform's file whole, without a backup, and removes it on uninstall", () => {
    const linux = setupLocations({}, "/home/maya", "linux");
    const unit = planLoginService(linux, null, paths);
    expect(unit).toMatchObject({ path: "/home/maya/.config/systemd/user/memd.service", backup: false, summary: ["write the systemd user unit"] });
    const written = unit?.after ?? null;
    expect(planLoginService(linux, written, paths)).toMatchObject({ before: written, after: written, summary: [] });
    expect(planLoginService(linux, written, undefined)).toMatchObject({ before: written, after: null, summary: ["remove the systemd user unit"] });
    const mac = setupLocations({}, "/Users/maya", "darwin");
    expect(planLoginService(mac, null, paths)?.path).toBe("/Users/maya/Library/LaunchAgents/dev.memd.daemon.plist");
    expect(planLoginService(setupLocations({}, "C:/u", "win32"), null, paths)).toBeNull();
  });

  it("respects XDG_CONFIG_HOME", () => {
    expect(setupLocations({ XDG_CONFIG_HOME: "/cfg" }, "/home/maya", "linux").systemdUnit).toBe("/cfg/systemd/user/memd.service");
  });
});
