import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { type InstallPaths, serviceEnvironment, setupLocations } from "./locations.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchdPlist, launchdProgram, planLoginService, systemdUnit, systemdWord, unitEnvironmentFile } from "./login-service.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };

describe("systemd user unit", () => {
  it("runs node on the daemon with a small young generation, restarts on failure and starts with the user's session", () => {
    const unit = systemdUnit(paths, [], "%h/.config/memd/env");
    expect(unit).toContain("\nExecStart=/usr/bin/node --max-semi-space-size=4 --heap-growing-percent=30 /opt/memd/dist/daemon/src/main.js\n");
    expect(unit).toContain("\nRestart=on-failure\nRestartSec=5\n");
    expect(unit).toContain("\n[Install]\nWantedBy=default.target\n");
    expect(unit).toMatch(/\nDescription=memd: .+\n/);
    expect(unit).not.toContain("\nEnvironment=");
  });

  it("reads the optional environment file, where secrets go, and sets each setting taken from the environment", () => {
    const unit = systemdUnit(paths, [["MEMD_HOME", "/data/memd"], ["MEMD_EMBEDDER", "ollama"], ["OLLAMA_HOST", "http://gpu:11434"]], "%h/.config/memd/env");
    expect(unit).toContain("\nEnvironmentFile=-%h/.config/memd/env\nEnvironment=MEMD_HOME=/data/memd\nEnvironment=MEMD_EMBEDDER=ollama\nEnvironment=OLLAMA_HOST=http://gpu:11434\n");
  });

  it("names the environment file from %h when it lies in the home directory, escaping %", () => {
    expect(unitEnvironmentFile("/home/maya/.config/memd/env", "/home/maya")).toBe("%h/.config/memd/env");
    expect(unitEnvironmentFile("/cfg/100%/memd/env", "/home/maya")).toBe("/cfg/100%%/memd/env");
  });

  it("quotes spaces and escapes specifiers and variables", () => {
    expect(systemdWord("/opt/my node/bin/node", "ExecStart")).toBe('"/opt/my node/bin/node"');
    expect(systemdWord("/a/100%/$HOME", "ExecStart")).toBe("/a/100%%/$$HOME");
    expect(systemdWord('MEMD_HOME=/a "b"/$x', "Environment")).toBe('"MEMD_HOME=/a \\"b\\"/$x"');
  });
});

describe("launchd agent", () => {
  it("is a plist with the label, program, RunAtLoad, KeepAlive unless a clean exit, and log files", () => {
    const plist = launchdPlist({ ...paths, node: "/opt/n&m/node" }, [["MEMD_HOME", "/data/memd"], ["MEMD_LLM", "ollama"]], "/data/memd/logs", "/Users/m/.config/memd/env");
    const script = "import json, plistlib, sys; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))";
    expect(JSON.parse(execFileSync("python3", ["-c", script], { input: plist, encoding: "utf8" }))).toEqual({
      Label: "dev.memd.daemon",
      ProgramArguments: launchdProgram({ ...paths, node: "/opt/n&m/node" }, "/Users/m/.config/memd/env"),
      EnvironmentVariables: { MEMD_HOME: "/data/memd", MEMD_LLM: "ollama" },
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      StandardOutPath: "/data/memd/logs/memd.stdout.log",
      StandardErrorPath: "/data/memd/logs/memd.stderr.log",
    });
  });
});

describe("the launchd agent's program", () => {
  it("loads the optional environment file, where secrets go, then runs node on the daemon", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-launchd-"));
    try {
      const daemon = path.join(dir, "print-env.js");
      fs.writeFileSync(daemon, "process.stdout.write(`${process.env.OPENAI_API_KEY ?? '-'} ${process.env.MEMD_LLM ?? '-'} ${process.argv.length} ${process.execArgv.join(' ')}`)");
      const envFile = path.join(dir, "env");
      const run = () => {
        const [command, ...args] = launchdProgram({ ...paths, node: process.execPath, daemon }, envFile);
        return execFileSync(command as string, args, { encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
      };
      expect(run()).toBe("- - 2 --max-semi-space-size=4 --heap-growing-percent=30");
      fs.writeFileSync(envFile, "OPENAI_API_KEY=sk-from-file\nMEMD_LLM=openai\n");
      expect(run()).toBe("sk-from-file openai 2 --max-semi-space-size=4 --heap-growing-percent=30");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
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

describe("settings for the login service", () => {
  const env = {
    MEMD_EMBEDDER: "openai",
    MEMD_OPENAI_MODEL: "text-embedding-3-large",
    MEMD_LLM: "openai",
    MEMD_LLM_DAILY_TOKENS: "50000",
    OLLAMA_HOST: "http://gpu:11434",
    OPENAI_API_KEY: "sk-live-123",
    MEMD_OPENAI_API_KEY: "sk-live-456",
    MEMD_WEBHOOK_TOKEN: "t",
    MEMD_CLIENT_SECRET: "s",
    MEMD_LOG_LEVEL: "",
    MEMD_HOME: "/data/memd",
    PATH: "/usr/bin",
  };

  it("takes the daemon's MEMD_* settings and OLLAMA_HOST, never a key, token or secret", () => {
    expect(serviceEnvironment(env)).toEqual([
      ["MEMD_EMBEDDER", "openai"],
      ["MEMD_LLM", "openai"],
      ["MEMD_LLM_DAILY_TOKENS", "50000"],
      ["MEMD_OPENAI_MODEL", "text-embedding-3-large"],
      ["OLLAMA_HOST", "http://gpu:11434"],
    ]);
  });

  it("puts them in the unit and the plist after MEMD_HOME, and changes nothing for the same environment", () => {
    const linux = setupLocations(env, "/home/maya", "linux");
    const unit = planLoginService(linux, null, paths)?.after ?? "";
    expect(unit).toContain("\nEnvironmentFile=-%h/.config/memd/env\nEnvironment=MEMD_HOME=/data/memd\nEnvironment=MEMD_EMBEDDER=openai\n");
    expect(unit).toContain("\nEnvironment=OLLAMA_HOST=http://gpu:11434\n");
    expect(unit).not.toContain("sk-live");
    expect(planLoginService(setupLocations(env, "/home/maya", "linux"), unit, paths)?.summary).toEqual([]);
    expect(planLoginService(setupLocations({ ...env, MEMD_LLM: "ollama" }, "/home/maya", "linux"), unit, paths)?.summary).toEqual(["rewrite the systemd user unit"]);
    const plist = planLoginService(setupLocations(env, "/Users/maya", "darwin"), null, paths)?.after ?? "";
    expect(plist).toContain("<key>MEMD_HOME</key>\n    <string>/data/memd</string>\n    <key>MEMD_EMBEDDER</key>");
    expect(plist).not.toContain("sk-live");
  });
});
