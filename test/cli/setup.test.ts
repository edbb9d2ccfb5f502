import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI_BIN, MCP_BIN, REPO_ROOT, runProcess, spawnDaemon } from "../helpers/daemon.js";

const FIXTURES = path.join(REPO_ROOT, "test/cli/fixtures");
const HOOK_BIN = path.join(REPO_ROOT, "dist/hooks/src/main.js");
const DAEMON_BIN = path.join(REPO_ROOT, "dist/daemon/src/main.js");
const EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact", "SessionEnd"];

let home: string;

/** A user's home with Claude Code, Codex and Cursor configured the way the fixtures show. */
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "memd-setup-"));
  fs.mkdirSync(path.join(home, ".claude"));
  fs.copyFileSync(path.join(FIXTURES, "claude-settings.json"), path.join(home, ".claude/settings.json"));
  fs.copyFileSync(path.join(FIXTURES, "claude.json"), path.join(home, ".claude.json"));
  fs.chmodSync(path.join(home, ".claude.json"), 0o600);
  fs.mkdirSync(path.join(home, "codex-home"));
  fs.copyFileSync(path.join(FIXTURES, "codex-config.toml"), path.join(home, "codex-home/config.toml"));
  fs.mkdirSync(path.join(home, ".cursor"));
  fs.copyFileSync(path.join(FIXTURES, "cursor-mcp.json"), path.join(home, ".cursor/mcp.json"));
  fs.mkdirSync(path.join(home, "repo"));
  fs.copyFileSync(path.join(FIXTURES, "AGENTS.md"), path.join(home, "repo/AGENTS.md"));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

/** memctl with HOME, XDG_CONFIG_HOME and CODEX_HOME in the temporary home, never the real ones. */
function memctl(...args: string[]) {
  return runProcess(CLI_BIN, args, {
    cwd: home,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg"), CODEX_HOME: path.join(home, "codex-home"), MEMD_HOME: "", CLAUDE_CONFIG_DIR: "" },
  });
}

const file = (relative: string) => path.join(home, relative);
const read = (relative: string) => fs.readFileSync(file(relative), "utf8");
const readJson = (relative: string) => JSON.parse(read(relative)) as Record<string, unknown>;
const fixtureJson = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8")) as Record<string, unknown>;

/** Every file under the home with its bytes, to prove a run changed nothing. */
function snapshot(dir = home): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      files.set(path.relative(dir, full), fs.readFileSync(full, "utf8"));
    }
  }
  return files;
}

function parseToml(text: string): Record<string, unknown> {
  const script = "import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))";
  return JSON.parse(execFileSync("python3", ["-c", script], { input: text, encoding: "utf8" })) as Record<string, unknown>;
}

type Handler = { type: string; command: string; timeout: number; async?: boolean };
type Group = { matcher?: string; hooks: Handler[] };

const SETUP = ["setup", "--no-start", "--platform", "linux"];
const UNIT = "xdg/systemd/user/memd.service";

describe("memctl setup", () => {
  it("--dry-run lists every change with a diff and writes nothing", async () => {
    const before = snapshot();
    const res = await memctl(...SETUP, "--dry-run");
    expect(res.code).toBe(0);
    expect(snapshot()).toEqual(before);
    expect(res.stdout).toContain("~/.claude/settings.json: would update");
    expect(res.stdout).toContain(`add hooks: ${EVENTS.join(", ")}`);
    expect(res.stdout).toContain(`+             "command": "${process.execPath} ${HOOK_BIN} session-start",`);
    expect(res.stdout).toContain("~/.claude.json: would update");
    expect(res.stdout).toContain(`add mcpServers.memd (stdio: ${process.execPath} ${MCP_BIN})`);
    expect(res.stdout).toContain("~/codex-home/config.toml: would update");
    expect(res.stdout).toContain("+ [mcp_servers.memd]");
    expect(res.stdout).toContain("~/.cursor/mcp.json: would update");
    expect(res.stdout).toContain(`~/${UNIT}: would create`);
    expect(res.stdout).toContain("+ Restart=on-failure");
    expect(res.stdout).toContain("5 files would change; run without --dry-run to apply");
  });

  it("--dry-run --json gives each file's action, summary and diff", async () => {
    const res = await memctl("--json", ...SETUP, "--dry-run");
    const out = JSON.parse(res.stdout) as { dryRun: boolean; changed: number; files: { target: string; path: string; action: string; diff: string[] }[] };
    expect(out.dryRun).toBe(true);
    expect(out.changed).toBe(5);
    expect(out.files.map((f) => [f.target, path.relative(home, f.path), f.action])).toEqual([
      ["claude", ".claude/settings.json", "update"],
      ["claude", ".claude.json", "update"],
      ["codex", "codex-home/config.toml", "update"],
      ["cursor", ".cursor/mcp.json", "update"],
      ["service", UNIT, "create"],
    ]);
    expect(out.files[2]?.diff).toContain("+ [mcp_servers.memd]");
  });

  it("merges memd into every config, keeps the user's hooks and keys, and backs up each file first", async () => {
    const res = await memctl(...SETUP);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("5 files changed");

    const settings = readJson(".claude/settings.json") as { $schema: string; hooks: Record<string, Group[]> };
    const original = fixtureJson("claude-settings.json") as { $schema: string; hooks: Record<string, Group[]> };
    expect(settings.$schema).toBe(original.$schema);
    for (const [event, groups] of Object.entries(original.hooks)) {
      expect(settings.hooks[event]?.slice(0, groups.length)).toEqual(groups);
    }
    expect(settings.hooks.Stop).toEqual(original.hooks.Stop);
    const ours = (event: string) => settings.hooks[event]?.at(-1);
    expect(ours("SessionStart")).toEqual({ matcher: "startup|resume|clear|compact", hooks: [{ type: "command", command: `${process.execPath} ${HOOK_BIN} session-start`, timeout: 10 }] });
    expect(ours("UserPromptSubmit")).toEqual({ hooks: [{ type: "command", command: `${process.execPath} ${HOOK_BIN} user-prompt-submit`, timeout: 5 }] });
    expect(ours("PostToolUse")).toEqual({ matcher: "Write|Edit", hooks: [{ type: "command", command: `${process.execPath} ${HOOK_BIN} post-tool-use`, timeout: 30, async: true }] });
    expect(ours("PostToolUseFailure")).toEqual({ matcher: "Bash", hooks: [{ type: "command", command: `${process.execPath} ${HOOK_BIN} post-tool-use-failure`, timeout: 30, async: true }] });
    expect(ours("PreCompact")?.hooks[0]?.command).toBe(`${process.execPath} ${HOOK_BIN} pre-compact`);
    expect(ours("SessionEnd")?.hooks[0]).toMatchObject({ command: `${process.execPath} ${HOOK_BIN} session-end`, timeout: 5 });

    const state = readJson(".claude.json");
    const originalState = fixtureJson("claude.json");
    expect(Object.keys(state)).toEqual(Object.keys(originalState));
    expect({ ...state, mcpServers: undefined }).toEqual({ ...originalState, mcpServers: undefined });
    expect(state.mcpServers).toEqual({
      ...(originalState.mcpServers as object),
      memd: { type: "stdio", command: process.execPath, args: [MCP_BIN], env: {} },
    });
    expect(fs.statSync(file(".claude.json")).mode & 0o777).toBe(0o600);

    const codexFixture = fs.readFileSync(path.join(FIXTURES, "codex-config.toml"), "utf8");
    const userCodex = parseToml(codexFixture) as { mcp_servers: object };
    expect(parseToml(read("codex-home/config.toml"))).toEqual({
      ...userCodex,
      mcp_servers: { ...userCodex.mcp_servers, memd: { command: process.execPath, args: [MCP_BIN], startup_timeout_sec: 20 } },
    });
    // Edited as text: the user's comments and layout are still there, byte for byte.
    expect(read("codex-home/config.toml").startsWith(codexFixture)).toBe(true);

    const cursor = readJson(".cursor/mcp.json") as { mcpServers: Record<string, unknown> };
    expect(cursor.mcpServers).toEqual({ ...(fixtureJson("cursor-mcp.json").mcpServers as object), memd: { command: process.execPath, args: [MCP_BIN] } });

    const unit = read(UNIT);
    expect(unit).toContain(`\nExecStart=${process.execPath} ${DAEMON_BIN}\n`);
    expect(unit).toContain("\nRestart=on-failure\n");
    expect(unit).toMatch(/\nRestartSec=\d+\n/);
    expect(unit).toContain("\nWantedBy=default.target\n");
    expect(unit).not.toContain("MEMD_HOME");
    expect(res.stdout).toContain("not enabled or started (--no-start)");

    for (const [relative, fixture] of [[".claude/settings.json", "claude-settings.json"], [".claude.json", "claude.json"], ["codex-home/config.toml", "codex-config.toml"], [".cursor/mcp.json", "cursor-mcp.json"]] as const) {
      const backups = fs.readdirSync(path.dirname(file(relative))).filter((name) => name.startsWith(`${path.basename(relative)}.memd-backup-`));
      expect(backups).toHaveLength(1);
      expect(fs.readFileSync(path.join(path.dirname(file(relative)), backups[0] as string), "utf8")).toBe(fs.readFileSync(path.join(FIXTURES, fixture), "utf8"));
      expect(res.stdout).toContain(`backup: ~/${relative}.memd-backup-`);
    }
  });

  it.skipIf(!fs.existsSync("/usr/bin/systemd-analyze") && !fs.existsSync("/bin/systemd-analyze"))("writes a unit that systemd-analyze verify accepts", async () => {
    expect((await memctl(...SETUP, "--only", "service")).code).toBe(0);
    const verify = spawnSync("systemd-analyze", ["verify", file(UNIT)], { encoding: "utf8" });
    expect(verify.stderr).toBe("");
    expect(verify.status).toBe(0);
  });

  it("changes nothing the second time: same bytes, no new backups", async () => {
    expect((await memctl(...SETUP)).code).toBe(0);
    const after = snapshot();
    const second = await memctl(...SETUP);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("nothing to change");
    expect(second.stdout).not.toContain("backup:");
    expect(snapshot()).toEqual(after);
  });

  it("uninstall removes only memd's entries and restores the user's own content", async () => {
    expect((await memctl(...SETUP)).code).toBe(0);
    const res = await memctl("uninstall", "--no-start", "--platform", "linux");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`remove memd hooks: ${EVENTS.join(", ")}`);
    expect(readJson(".claude/settings.json")).toEqual(fixtureJson("claude-settings.json"));
    expect(readJson(".claude.json")).toEqual(fixtureJson("claude.json"));
    expect(readJson(".cursor/mcp.json")).toEqual(fixtureJson("cursor-mcp.json"));
    expect(read("codex-home/config.toml")).toBe(fs.readFileSync(path.join(FIXTURES, "codex-config.toml"), "utf8"));
    expect(fs.existsSync(file(UNIT))).toBe(false);
    expect((await memctl("uninstall", "--no-start", "--platform", "linux")).stdout).toContain("nothing to change");
  });

  it("refuses a malformed settings.json with exit 1, naming it, and changes nothing anywhere", async () => {
    fs.writeFileSync(file(".claude/settings.json"), '{ "hooks": { "Stop": [ }\n');
    const before = snapshot();
    const res = await memctl(...SETUP);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${file(".claude/settings.json")} is not valid JSON`);
    expect(res.stderr).toContain("Nothing was changed");
    expect(res.stdout).toBe("");
    expect(snapshot()).toEqual(before);
  });

  it("writes a launchd agent for macOS", async () => {
    expect((await memctl("setup", "--no-start", "--platform", "darwin", "--only", "service")).code).toBe(0);
    const script = "import json, plistlib, sys; print(json.dumps(plistlib.load(open(sys.argv[1], 'rb'))))";
    const plist = JSON.parse(execFileSync("python3", ["-c", script, file("Library/LaunchAgents/dev.memd.daemon.plist")], { encoding: "utf8" })) as Record<string, unknown>;
    expect(plist).toEqual({
      Label: "dev.memd.daemon",
      ProgramArguments: [process.execPath, DAEMON_BIN],
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      StandardOutPath: path.join(home, ".memd/logs/memd.stdout.log"),
      StandardErrorPath: path.join(home, ".memd/logs/memd.stderr.log"),
    });
    expect((await memctl("uninstall", "--no-start", "--platform", "darwin", "--only", "service")).code).toBe(0);
    expect(fs.existsSync(file("Library/LaunchAgents/dev.memd.daemon.plist"))).toBe(false);
  });

  it("skips agents that are not installed unless --only names them", async () => {
    fs.rmSync(file(".cursor"), { recursive: true });
    const res = await memctl(...SETUP);
    expect(res.stdout).toMatch(/skipped cursor: .*\.cursor does not exist/);
    expect(fs.existsSync(file(".cursor/mcp.json"))).toBe(false);
    const only = await memctl(...SETUP, "--only", "cursor");
    expect(only.stderr).toBe("");
    expect(only.code).toBe(0);
    expect(readJson(".cursor/mcp.json")).toEqual({ mcpServers: { memd: { command: process.execPath, args: [MCP_BIN] } } });
  });

  it("exits 2 on an unknown target", async () => {
    const res = await memctl("setup", "--only", "claude,vim");
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("claude, codex, cursor, service");
  });

  it("--agents-md says memd is not running and changes nothing when the daemon is down", async () => {
    const before = snapshot();
    const res = await memctl(...SETUP, "--agents-md", file("repo"));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("memd is not running");
    expect(res.stderr).toContain("memctl start");
    expect(snapshot()).toEqual(before);
  });
});

describe("memctl setup --agents-md with a running daemon", () => {
  it("writes the daemon's instructions into a delimited section and uninstall removes only that", async () => {
    const daemon = await spawnDaemon();
    try {
      const agents = (...args: string[]) => memctl("--home", daemon.home, ...args, "--only", "codex", "--agents-md", file("repo"));
      const res = await agents(...SETUP);
      expect(res.code).toBe(0);
      const text = read("repo/AGENTS.md");
      const original = fs.readFileSync(path.join(FIXTURES, "AGENTS.md"), "utf8");
      expect(text.startsWith(`${original}\n<!-- memd:agents:begin`)).toBe(true);
      expect(text.endsWith("<!-- memd:agents:end -->\n")).toBe(true);
      const { text: prompt } = await daemon.clients.admin.instructions({});
      expect(text).toContain(prompt.trim());
      expect(text).toContain("memctl checkpoint");
      expect(text).toContain("curl -s --unix-socket");
      expect(fs.readdirSync(file("repo"))).toEqual(["AGENTS.md"]);
      expect(parseToml(read("codex-home/config.toml")).mcp_servers).toMatchObject({ memd: { env: { MEMD_HOME: daemon.home } } });

      expect((await agents(...SETUP)).stdout).toContain("nothing to change");
      expect(read("repo/AGENTS.md")).toBe(text);

      const removed = await agents("uninstall", "--no-start", "--platform", "linux");
      expect(removed.code).toBe(0);
      expect(read("repo/AGENTS.md")).toBe(original);
    } finally {
      await daemon.stop();
      fs.rmSync(daemon.home, { recursive: true, force: true });
    }
  });
});
