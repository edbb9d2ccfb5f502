import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI_BIN, MCP_BIN, REPO_ROOT, runProcess, spawnDaemon } from "../helpers/daemon.js";
import { requirement } from "../helpers/requirement.js";
import { itUnless } from "../helpers/skip-unless.js";

const FIXTURES = path.join(REPO_ROOT, "test/cli/fixtures");
const HOOK_BIN = path.join(REPO_ROOT, "dist/hooks/src/main.js");
const CURL_SHIM = path.join(REPO_ROOT, "hooks/memd-hook.sh");
/** The command setup writes for a hook: the curl shim, with node and memd-hook for where curl is missing. */
const hookCommandFor = (arg: string) => `/bin/sh ${CURL_SHIM} ${arg} ${process.execPath} ${HOOK_BIN}`;
const DAEMON_BIN = path.join(REPO_ROOT, "dist/daemon/src/main.js");
const EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact", "SessionEnd"];

/** systemd-analyze verify checks the units setup writes: Debian's systemd package has it, and .ci/run installs it. */
const noSystemdAnalyze = requirement(
  fs.existsSync("/usr/bin/systemd-analyze") || fs.existsSync("/bin/systemd-analyze") ? "" : "systemd-analyze is not installed (Debian: apt-get install systemd)",
  ".ci/run installs Debian's systemd package as root",
);

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

/** The daemon settings of the environment the tests run in, blanked: setup would copy them into the service. */
const NO_DAEMON_SETTINGS = Object.fromEntries(Object.keys(process.env).filter((name) => name.startsWith("MEMD_") || name === "OLLAMA_HOST").map((name) => [name, ""]));

/**
 * memctl with HOME, XDG_CONFIG_HOME and CODEX_HOME in the temporary home, never the real ones,
 * plus `env` (bin: another memctl build).
 */
function memctlWith(env: Record<string, string>, args: string[], bin = CLI_BIN) {
  return runProcess(bin, args, {
    cwd: home,
    env: { ...NO_DAEMON_SETTINGS, HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg"), CODEX_HOME: path.join(home, "codex-home"), MEMD_HOME: "", CLAUDE_CONFIG_DIR: "", ...env },
  });
}

/** Daemon settings and keys in the environment, as a user's shell may hold them when they run setup. */
const DAEMON_SETTINGS = { MEMD_EMBEDDER: "ollama", OLLAMA_HOST: "http://127.0.0.1:11500", MEMD_LLM: "ollama", MEMD_LLM_DAILY_TOKENS: "50000", OPENAI_API_KEY: "sk-test-not-for-the-unit", MEMD_OPENAI_API_KEY: "sk-also-not" };

function memctl(...args: string[]) {
  return memctlWith({}, args);
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

/** A snapshot without the copies setup and uninstall keep of each file they change (NAME.memd-backup-STAMP). */
function withoutBackups(files: Map<string, string>): Map<string, string> {
  return new Map([...files].filter(([name]) => !name.includes(".memd-backup-")));
}

function parseToml(text: string): Record<string, unknown> {
  const script = "import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))";
  return JSON.parse(execFileSync("python3", ["-c", script], { input: text, encoding: "utf8" })) as Record<string, unknown>;
}

type Handler = { type: string; command: string; timeout: number; async?: boolean };
type Group = { matcher?: string; hooks: Handler[] };

const SETUP = ["setup", "--no-start", "--platform", "linux", "--systemd", "yes"];
const UNINSTALL = ["uninstall", "--no-start", "--platform", "linux", "--systemd", "yes"];
const UNIT = "xdg/systemd/user/memd.service";

describe("memctl setup", () => {
  it("--dry-run lists every change with a diff and writes nothing", async () => {
    const before = snapshot();
    const res = await memctl(...SETUP, "--dry-run");
    expect(res.code).toBe(0);
    expect(snapshot()).toEqual(before);
    expect(res.stdout).toContain("~/.claude/settings.json: would update");
    expect(res.stdout).toContain(`add hooks: ${EVENTS.join(", ")}`);
    expect(res.stdout).toContain(`+             "command": "${hookCommandFor("session-start")}",`);
    expect(res.stdout).toContain("~/.claude.json: would update");
    expect(res.stdout).toContain(`add mcpServers.memd (stdio: ${process.execPath} ${MCP_BIN})`);
    expect(res.stdout).toContain("~/codex-home/config.toml: would update");
    expect(res.stdout).toContain("+ [mcp_servers.memd]");
    expect(res.stdout).toContain("~/.cursor/mcp.json: would update");
    expect(res.stdout).toContain(`~/${UNIT}: would create`);
    expect(res.stdout).toContain("+ Restart=on-failure");
    expect(res.stdout).toContain("~/.memd/listen: would create");
    expect(res.stdout).toMatch(/claude {5}http hooks on 127\.0\.0\.1:\d+, since the login service keeps memd running/);
    expect(res.stdout).toContain("~/codex-home/hooks.json: would create");
    expect(res.stdout).toContain("~/.claude/commands/memd.md: would create");
    expect(res.stdout).toContain("~/codex-home/skills/memd/SKILL.md: would create");
    expect(res.stdout).toContain("~/.cursor/hooks.json: would create");
    expect(res.stdout).toContain("11 files would change; run without --dry-run to apply");
  });

  it("--dry-run --json gives each file's action, summary and diff", async () => {
    const res = await memctl("--json", ...SETUP, "--dry-run");
    const out = JSON.parse(res.stdout) as { dryRun: boolean; changed: number; files: { target: string; path: string; action: string; diff: string[] }[] };
    expect(out.dryRun).toBe(true);
    expect(out.changed).toBe(11);
    expect(out.files.map((f) => [f.target, path.relative(home, f.path), f.action])).toEqual([
      ["claude", ".claude/settings.json", "update"],
      ["claude", ".memd/listen", "create"],
      ["claude", ".memd/hook-token", "create"],
      ["claude", ".claude.json", "update"],
      ["claude", ".claude/commands/memd.md", "create"],
      ["codex", "codex-home/config.toml", "update"],
      ["codex", "codex-home/hooks.json", "create"],
      ["codex", "codex-home/skills/memd/SKILL.md", "create"],
      ["codex", "codex-home/prompts/memd.md", "unchanged"],
      ["cursor", ".cursor/mcp.json", "update"],
      ["cursor", ".cursor/hooks.json", "create"],
      ["service", UNIT, "create"],
    ]);
    expect(out.files[5]?.diff).toContain("+ [mcp_servers.memd]");
  });

  it("merges memd into every config, keeps the user's hooks and keys, and backs up each file first", async () => {
    const res = await memctl(...SETUP);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("11 files changed");
    expect(read(".claude/commands/memd.md")).toContain(`!\`${process.execPath} ${path.join(REPO_ROOT, "dist/clients/cli/src/main.js")} slash $ARGUMENTS\``);
    const port = /^127\.0\.0\.1:(\d+)\n$/.exec(read(".memd/listen"))?.[1];
    const token = read(".memd/hook-token").trim();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(file(".memd/hook-token")).mode & 0o777).toBe(0o600);
    expect(fs.statSync(file(".memd")).mode & 0o777).toBe(0o700);
    const http = (event: string, timeout: number) => ({ type: "http", url: `http://127.0.0.1:${port}/hooks/claude-code/${event}`, headers: { Authorization: `Bearer ${token}` }, timeout });

    const settings = readJson(".claude/settings.json") as { $schema: string; hooks: Record<string, Group[]> };
    const original = fixtureJson("claude-settings.json") as { $schema: string; hooks: Record<string, Group[]> };
    expect(settings.$schema).toBe(original.$schema);
    for (const [event, groups] of Object.entries(original.hooks)) {
      expect(settings.hooks[event]?.slice(0, groups.length)).toEqual(groups);
    }
    expect(settings.hooks.Stop).toEqual(original.hooks.Stop);
    const ours = (event: string) => settings.hooks[event]?.at(-1);
    expect(ours("SessionStart")).toEqual({ hooks: [{ type: "command", command: hookCommandFor("session-start"), timeout: 10 }] });
    // Claude Code takes http hooks on every event but SessionStart: no process starts for them.
    expect(ours("UserPromptSubmit")).toEqual({ hooks: [http("UserPromptSubmit", 5)] });
    expect(ours("PostToolUse")).toEqual({ matcher: "Write|Edit", hooks: [http("PostToolUse", 5)] });
    expect(ours("PostToolUseFailure")).toEqual({ matcher: "Bash", hooks: [http("PostToolUseFailure", 5)] });
    expect(ours("PreCompact")).toEqual({ hooks: [http("PreCompact", 10)] });
    expect(ours("SessionEnd")).toEqual({ hooks: [http("SessionEnd", 2)] });

    const state = readJson(".claude.json");
    const originalState = fixtureJson("claude.json");
    expect(Object.keys(state)).toEqual(Object.keys(originalState));
    expect({ ...state, mcpServers: undefined }).toEqual({ ...originalState, mcpServers: undefined });
    expect(state.mcpServers).toEqual({
      ...(originalState.mcpServers as object),
      memd: { type: "stdio", command: process.execPath, args: [MCP_BIN], env: {} },
    });
    expect(fs.statSync(file(".claude.json")).mode & 0o777).toBe(0o600);

    expect(readJson("codex-home/hooks.json")).toEqual({
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: `${hookCommandFor("session-start")} codex`, timeout: 10 }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `${hookCommandFor("user-prompt-submit")} codex`, timeout: 5 }] }],
        Stop: [{ hooks: [{ type: "command", command: `${hookCommandFor("stop")} codex`, timeout: 5 }] }],
        PreCompact: [{ hooks: [{ type: "command", command: `${hookCommandFor("pre-compact")} codex`, timeout: 10 }] }],
      },
    });

    const codexFixture = fs.readFileSync(path.join(FIXTURES, "codex-config.toml"), "utf8");
    const userCodex = parseToml(codexFixture) as { mcp_servers: object };
    const codexHooks = file("codex-home/hooks.json");
    expect(parseToml(read("codex-home/config.toml"))).toEqual({
      ...userCodex,
      mcp_servers: { ...userCodex.mcp_servers, memd: { command: process.execPath, args: [MCP_BIN], startup_timeout_sec: 20 } },
      // codex exec runs only trusted hooks: setup trusts the four it wrote (test/agents proves Codex takes the hashes).
      hooks: {
        state: Object.fromEntries(
          ["session_start", "user_prompt_submit", "stop", "pre_compact"].map((event) => [`${codexHooks}:${event}:0:0`, { trusted_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }]),
        ),
      },
    });
    // Edited as text: the user's comments and layout are still there, byte for byte.
    expect(read("codex-home/config.toml").startsWith(codexFixture)).toBe(true);

    const cursor = readJson(".cursor/mcp.json") as { mcpServers: Record<string, unknown> };
    expect(cursor.mcpServers).toEqual({ ...(fixtureJson("cursor-mcp.json").mcpServers as object), memd: { command: process.execPath, args: [MCP_BIN] } });

    const unit = read(UNIT);
    expect(unit).toContain(`\nExecStart=${process.execPath} --max-semi-space-size=4 --heap-growing-percent=30 ${DAEMON_BIN}\n`);
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

  itUnless(noSystemdAnalyze, "writes units that systemd-analyze verify accepts, with and without the daemon's settings", async () => {
    const verify = () => spawnSync("systemd-analyze", ["verify", file(UNIT)], { encoding: "utf8" });
    expect((await memctl(...SETUP, "--only", "service")).code).toBe(0);
    expect(verify()).toMatchObject({ stderr: "", status: 0 });
    expect((await memctlWith(DAEMON_SETTINGS, [...SETUP, "--only", "service"])).code).toBe(0);
    expect(read(UNIT)).toContain("\nEnvironment=MEMD_EMBEDDER=ollama\n");
    expect(verify()).toMatchObject({ stderr: "", status: 0 });
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
    const res = await memctl(...UNINSTALL);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`remove memd hooks: ${EVENTS.join(", ")}`);
    expect(readJson(".claude/settings.json")).toEqual(fixtureJson("claude-settings.json"));
    expect(readJson(".claude.json")).toEqual(fixtureJson("claude.json"));
    expect(readJson(".cursor/mcp.json")).toEqual(fixtureJson("cursor-mcp.json"));
    expect(read("codex-home/config.toml")).toBe(fs.readFileSync(path.join(FIXTURES, "codex-config.toml"), "utf8"));
    expect(fs.existsSync(file(UNIT))).toBe(false);
    expect((await memctl(...UNINSTALL)).stdout).toContain("nothing to change");
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
      // A shell loads the optional settings file, then becomes node on the daemon.
      ProgramArguments: ["/bin/sh", "-c", expect.stringContaining('exec "$@"'), "memd", expect.stringMatching(/\/memd\/env$/), process.execPath, "--max-semi-space-size=4", "--heap-growing-percent=30", DAEMON_BIN],
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
    expect(res.stderr).toContain("claude, codex, cursor, gemini, copilot, opencode, service");
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

describe("memctl setup on a machine of its own", () => {
  it("writes through a dotfiles symlink whose target does not exist yet, and backs up a linked file beside the link", async () => {
    fs.rmSync(file(".cursor/mcp.json"));
    fs.symlinkSync("../dotfiles/cursor/mcp.json", file(".cursor/mcp.json"));
    fs.mkdirSync(file("dotfiles/claude"), { recursive: true });
    fs.renameSync(file(".claude/settings.json"), file("dotfiles/claude/settings.json"));
    fs.symlinkSync(file("dotfiles/claude/settings.json"), file(".claude/settings.json"));
    const res = await memctl(...SETUP, "--only", "claude,cursor");
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(fs.lstatSync(file(".cursor/mcp.json")).isSymbolicLink()).toBe(true);
    expect(readJson("dotfiles/cursor/mcp.json")).toEqual({ mcpServers: { memd: { command: process.execPath, args: [MCP_BIN] } } });
    expect(fs.lstatSync(file(".claude/settings.json")).isSymbolicLink()).toBe(true);
    expect(read("dotfiles/claude/settings.json")).toContain("session-start");
    const backups = fs.readdirSync(file(".claude")).filter((name) => name.startsWith("settings.json.memd-backup-"));
    expect(backups).toHaveLength(1);
    expect(fs.readdirSync(file("dotfiles/claude"))).toEqual(["settings.json"]);
    expect((await memctl(...SETUP, "--only", "claude,cursor")).stdout).toContain("nothing to change");
  });

  it("keeps the user's own settings on memd's entries when it runs again, and uninstall still removes them whole", async () => {
    expect((await memctl(...SETUP, "--only", "claude,codex")).code).toBe(0);
    const codex = read("codex-home/config.toml").replace(
      `startup_timeout_sec = 20\n`,
      `startup_timeout_sec = 20\n# off while I try another memory server\nenabled = false\ntool_timeout_sec = 120\n\n[mcp_servers.memd.tools.memory_save]\napproval_mode = "approve"\n`,
    );
    fs.writeFileSync(file("codex-home/config.toml"), codex);
    const state = readJson(".claude.json") as { mcpServers: Record<string, Record<string, unknown>> };
    state.mcpServers.memd = { ...state.mcpServers.memd, args: ["/moved/memd-mcp.mjs"], disabled: true, env: { DEBUG: "memd" } };
    fs.writeFileSync(file(".claude.json"), JSON.stringify(state, null, 2));

    const again = await memctl(...SETUP, "--only", "claude,codex");
    expect(again.code).toBe(0);
    expect(read("codex-home/config.toml")).toBe(codex);
    expect(parseToml(codex)).toMatchObject({ mcp_servers: { memd: { enabled: false, tool_timeout_sec: 120, tools: { memory_save: { approval_mode: "approve" } } } } });
    expect((readJson(".claude.json") as typeof state).mcpServers.memd).toEqual({ type: "stdio", command: process.execPath, args: [MCP_BIN], env: { DEBUG: "memd" }, disabled: true });

    expect((await memctl(...UNINSTALL, "--only", "claude,codex")).code).toBe(0);
    expect(read("codex-home/config.toml")).toBe(fs.readFileSync(path.join(FIXTURES, "codex-config.toml"), "utf8"));
    expect(readJson(".claude.json")).toEqual(fixtureJson("claude.json"));
  });

  it("writes command hooks through the curl shim where no login service keeps memd running, and says why", async () => {
    const res = await memctl("setup", "--no-start", "--platform", "linux", "--systemd", "no");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/claude {5}command hooks through the curl shim, since no login service keeps memd listening \(no systemd runs on this machine/);
    const settings = readJson(".claude/settings.json") as { hooks: Record<string, Group[]> };
    expect(settings.hooks.UserPromptSubmit?.at(-1)).toEqual({ hooks: [{ type: "command", command: hookCommandFor("user-prompt-submit"), timeout: 5 }] });
    expect(fs.existsSync(file(".memd/listen"))).toBe(false);
  });

  it("wires Gemini CLI's hooks into ~/.gemini/settings.json beside the user's settings, and uninstall restores the file byte for byte", async () => {
    fs.mkdirSync(file(".gemini"));
    const theirs = `${JSON.stringify({ theme: "GitHub", hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: "./audit.sh" }] }] } }, null, 2)}\n`;
    fs.writeFileSync(file(".gemini/settings.json"), theirs);
    expect((await memctl("setup", "--only", "gemini", "--no-start")).code).toBe(0);
    const settings = readJson(".gemini/settings.json") as { theme: string; hooks: Record<string, Group[]> };
    expect(settings.theme).toBe("GitHub");
    expect(settings.hooks.BeforeAgent).toEqual([{ hooks: [{ type: "command", name: "memd", command: `${hookCommandFor("before-agent")} gemini`, timeout: 5000 }] }]);
    expect(settings.hooks.SessionStart?.[0]?.hooks[0]?.command).toBe(`${hookCommandFor("session-start")} gemini`);
    expect((await memctl("uninstall", "--only", "gemini", "--no-start")).code).toBe(0);
    expect(read(".gemini/settings.json")).toBe(theirs);
  });

  it("gives Copilot CLI a hooks file of memd's own, and uninstall takes it away again", async () => {
    fs.mkdirSync(file(".copilot/hooks"), { recursive: true });
    fs.writeFileSync(file(".copilot/hooks/theirs.json"), '{"version":1,"hooks":{}}\n');
    expect((await memctl("setup", "--only", "copilot", "--no-start")).code).toBe(0);
    const hooks = readJson(".copilot/hooks/memd.json") as { version: number; hooks: Record<string, { bash: string; timeoutSec: number }[]> };
    expect(hooks.version).toBe(1);
    expect(hooks.hooks.userPromptSubmitted).toEqual([{ type: "command", bash: `${hookCommandFor("user-prompt-submitted")} copilot`, timeoutSec: 5 }]);
    expect((await memctl("setup", "--only", "copilot", "--no-start")).stdout).toContain("nothing to change");
    expect((await memctl("uninstall", "--only", "copilot", "--no-start")).code).toBe(0);
    expect(fs.existsSync(file(".copilot/hooks/memd.json"))).toBe(false);
    expect(read(".copilot/hooks/theirs.json")).toBe('{"version":1,"hooks":{}}\n');
  });

  it("wires OpenCode (its MCP server in opencode.json, a plugin file and /memd of memd's own) beside the user's config, and uninstall restores the folder byte for byte", async () => {
    const theirs = `${JSON.stringify({ $schema: "https://opencode.ai/config.json", model: "anthropic/claude-sonnet-4-5", mcp: { github: { type: "remote", url: "https://mcp.example.com" } } }, null, 2)}\n`;
    fs.mkdirSync(file("xdg/opencode/plugins"), { recursive: true });
    fs.writeFileSync(file("xdg/opencode/opencode.json"), theirs);
    fs.writeFileSync(file("xdg/opencode/plugins/notify.js"), "export const Notify = async () => ({})\n");
    const before = snapshot(file("xdg/opencode"));
    const dry = await memctl("setup", "--only", "opencode", "--no-start", "--dry-run");
    expect(dry.stdout).toContain("+     \"memd\": {");
    expect(snapshot(file("xdg/opencode"))).toEqual(before);
    expect((await memctl("setup", "--only", "opencode", "--no-start")).code).toBe(0);
    const config = readJson("xdg/opencode/opencode.json") as { model: string; mcp: Record<string, unknown> };
    expect(config.model).toBe("anthropic/claude-sonnet-4-5");
    expect(config.mcp).toEqual({ github: { type: "remote", url: "https://mcp.example.com" }, memd: { type: "local", command: [process.execPath, MCP_BIN] } });
    expect(read("xdg/opencode/plugins/memd.js")).toContain(`import { memdOpenCodePlugin } from ${JSON.stringify(path.join(REPO_ROOT, "dist/hooks/src/opencode-plugin.js"))};`);
    expect(read("xdg/opencode/commands/memd.md")).toContain(`!\`${process.execPath} ${CLI_BIN} slash $ARGUMENTS\``);
    expect((await memctl("setup", "--only", "opencode", "--no-start")).stdout).toContain("nothing to change");
    expect((await memctl("uninstall", "--only", "opencode", "--no-start")).code).toBe(0);
    expect(withoutBackups(snapshot(file("xdg/opencode")))).toEqual(before);
  });

  it("creates opencode.json for memd's entry where OpenCode had none, and uninstall removes it again", async () => {
    fs.mkdirSync(file("xdg/opencode"), { recursive: true });
    expect((await memctlWith({ MEMD_HOME: file("memd-data") }, ["setup", "--only", "opencode", "--no-start"])).code).toBe(0);
    expect(readJson("xdg/opencode/opencode.json")).toEqual({ mcp: { memd: { type: "local", command: [process.execPath, MCP_BIN], environment: { MEMD_HOME: file("memd-data") } } } });
    expect(read("xdg/opencode/plugins/memd.js")).toContain(`memdOpenCodePlugin(${JSON.stringify({ memdHome: file("memd-data") })})`);
    expect((await memctl("uninstall", "--only", "opencode", "--no-start")).code).toBe(0);
    expect(withoutBackups(snapshot(file("xdg/opencode"))).size).toBe(0);
  });

  it("keeps another tool's hook that looks like memd's through setup and uninstall", async () => {
    const settings = fixtureJson("claude-settings.json") as { hooks: Record<string, Group[]> };
    const lookAlike: Group = { hooks: [{ type: "command", command: `node ${file(".local/lib/othertool/dist/hooks/src/main.js")} session-start`, timeout: 5 }] };
    settings.hooks.SessionStart?.push(lookAlike);
    fs.writeFileSync(file(".claude/settings.json"), JSON.stringify(settings, null, 2));
    expect((await memctl(...SETUP, "--only", "claude")).code).toBe(0);
    expect((readJson(".claude/settings.json") as typeof settings).hooks.SessionStart).toContainEqual(lookAlike);
    expect((await memctl(...UNINSTALL, "--only", "claude")).code).toBe(0);
    expect(readJson(".claude/settings.json")).toEqual(settings);
  });

  it("gives the login service the daemon's settings from the environment, never a key, and the environment file", async () => {
    const env = DAEMON_SETTINGS;
    expect((await memctlWith(env, [...SETUP, "--only", "service"])).code).toBe(0);
    const unit = read(UNIT);
    expect(unit).toContain("\nEnvironmentFile=-%h/xdg/memd/env\n");
    for (const name of ["MEMD_EMBEDDER", "OLLAMA_HOST", "MEMD_LLM", "MEMD_LLM_DAILY_TOKENS"] as const) expect(unit).toContain(`\nEnvironment=${name}=${env[name]}\n`);
    expect(unit).not.toContain("sk-");
    expect(unit).not.toContain("API_KEY=");
    const same = await memctlWith(env, [...SETUP, "--only", "service"]);
    expect(same.stdout).toContain("nothing to change");
    expect(read(UNIT)).toBe(unit);
    expect((await memctlWith(env, ["setup", "--no-start", "--platform", "darwin", "--only", "service"])).code).toBe(0);
    const plist = read("Library/LaunchAgents/dev.memd.daemon.plist");
    expect(plist).toContain("<key>MEMD_EMBEDDER</key>\n    <string>ollama</string>");
    expect(plist).not.toContain("sk-");
  });

  it("skips the login service without systemd, and --only service refuses, writing nothing", async () => {
    const res = await memctl("setup", "--no-start", "--platform", "linux", "--systemd", "no");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/skipped service: no systemd runs on this machine \(\/run\/systemd\/system does not exist/);
    expect(fs.existsSync(file(UNIT))).toBe(false);
    const before = snapshot();
    const only = await memctl("setup", "--platform", "linux", "--systemd", "no", "--only", "service");
    expect(only.code).toBe(1);
    expect(only.stderr).toContain("cannot set up the login service: no systemd runs on this machine");
    expect(only.stderr).toContain("Nothing was changed");
    expect(snapshot()).toEqual(before);
  });

  it("uninstall without systemd removes the unit and runs no systemctl", async () => {
    expect((await memctl(...SETUP, "--only", "service")).code).toBe(0);
    const res = await memctlWith({ PATH: "/nonexistent" }, ["uninstall", "--platform", "linux", "--systemd", "no", "--only", "service"]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("nothing to stop");
    expect(fs.existsSync(file(UNIT))).toBe(false);
  });

  it("refuses to set up an installation that was never built, naming what is missing", async () => {
    const install = fs.mkdtempSync(path.join(os.tmpdir(), "memd-unbuilt-"));
    try {
      for (const dir of ["clients", "gen"]) fs.cpSync(path.join(REPO_ROOT, "dist", dir), path.join(install, "dist", dir), { recursive: true });
      fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(install, "node_modules"));
      const before = snapshot();
      const res = await memctlWith({}, SETUP, path.join(install, "dist/clients/cli/src/main.js"));
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(path.join(install, "dist/hooks/src/main.js"));
      expect(res.stderr).toContain(path.join(install, "dist/daemon/src/main.js"));
      expect(res.stderr).toContain("npm run build");
      expect(res.stdout).toBe("");
      expect(snapshot()).toEqual(before);
    } finally {
      fs.rmSync(install, { recursive: true, force: true });
    }
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

      const removed = await agents(...UNINSTALL);
      expect(removed.code).toBe(0);
      expect(read("repo/AGENTS.md")).toBe(original);
    } finally {
      await daemon.stop();
      fs.rmSync(daemon.home, { recursive: true, force: true });
    }
  });
});
