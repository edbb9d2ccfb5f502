// memctl doctor against a temporary home where memctl setup wired Claude Code, Codex and Gemini
// CLI: what it says, agent by agent, when all is as setup wrote it, when a file was edited since,
// when an agent's own settings switch memd's hooks off, and when memd does not answer.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI_BIN, REPO_ROOT, runProcess, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const FIXTURES = path.join(REPO_ROOT, "test/cli/fixtures");

let home: string;
let daemon: TestDaemon | null = null;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "memd-doctor-"));
  fs.mkdirSync(path.join(home, ".claude"));
  fs.copyFileSync(path.join(FIXTURES, "claude-settings.json"), path.join(home, ".claude/settings.json"));
  fs.copyFileSync(path.join(FIXTURES, "claude.json"), path.join(home, ".claude.json"));
  fs.mkdirSync(path.join(home, ".codex"));
  fs.copyFileSync(path.join(FIXTURES, "codex-config.toml"), path.join(home, ".codex/config.toml"));
  fs.mkdirSync(path.join(home, ".gemini"));
  fs.writeFileSync(path.join(home, ".gemini/settings.json"), '{\n  "model": { "name": "gemini-2.5-pro" }\n}\n');
});
afterEach(async () => {
  await daemon?.stop();
  daemon = null;
  fs.rmSync(home, { recursive: true, force: true });
});

/** The daemon settings of the environment the tests run in, blanked: setup would copy them into the service. */
const NO_DAEMON_SETTINGS = Object.fromEntries(Object.keys(process.env).filter((name) => name.startsWith("MEMD_") || name === "OLLAMA_HOST").map((name) => [name, ""]));

/** memctl as the user runs it: HOME is the temporary home, every agent's location derived from it. */
function memctl(...args: string[]) {
  return runProcess(CLI_BIN, args, { cwd: home, env: { ...NO_DAEMON_SETTINGS, HOME: home, XDG_CONFIG_HOME: "", CODEX_HOME: "", COPILOT_HOME: "", CLAUDE_CONFIG_DIR: "" } });
}

async function setUp(...args: string[]) {
  const setup = await memctl("setup", "--systemd", "no", ...args);
  expect(setup.code, setup.stderr).toBe(0);
}

async function startMemd(): Promise<void> {
  daemon = await spawnDaemon({ home: path.join(home, ".memd"), env: { HOME: home } });
}

interface Check {
  subject: string;
  status: "ok" | "problem" | "note";
  message: string;
  fix?: string;
}

async function doctorJson(...args: string[]): Promise<{ code: number | null; report: { ok: boolean; problems: number; checks: Check[] } }> {
  const run = await memctl("doctor", "--systemd", "no", "--json", ...args);
  return { code: run.code, report: JSON.parse(run.stdout) as { ok: boolean; problems: number; checks: Check[] } };
}

const problems = (checks: readonly Check[]) => checks.filter((check) => check.status === "problem");
const edit = (relative: string, change: (text: string) => string) => fs.writeFileSync(path.join(home, relative), change(fs.readFileSync(path.join(home, relative), "utf8")));

describe("memctl doctor", () => {
  it("says agent by agent that memd is wired as setup wrote it and will run, and exits 0", async () => {
    await setUp();
    await startMemd();
    const run = await memctl("doctor", "--systemd", "no");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^memd +ok +memd \S+ answers on ~\/\.memd\/memd\.sock \(pid \d+\)$/);
    expect(lines).toContain("claude    ok       hooks, MCP server and /memd as memctl setup writes them");
    expect(lines).toContain("codex     ok       Codex runs memd's 4 hooks: each is trusted in ~/.codex/config.toml as hooks.json now has it");
    expect(lines).toContain("gemini    ok       hooks and MCP server as memctl setup writes them");
    expect(lines).toContain("cursor    note     not installed here (~/.cursor does not exist)");
    expect(lines.at(-2)).toBe("no problems found");
  });

  it("exits 1 when memd does not answer, and says how to start it", async () => {
    await setUp();
    const run = await memctl("doctor", "--systemd", "no");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("memd      problem  memd is not running (nothing answers on ~/.memd/memd.sock)");
    expect(run.stdout).toContain("fix: memctl start, or memctl setup --only service to start it at every login");
    expect(run.stderr).toBe("memctl: 1 problem found: see the fix lines above\n");
  });

  it("finds a Codex hook the user edited after setup trusted it, which Codex then skips; setup makes it right again", async () => {
    await setUp();
    await startMemd();
    edit(".codex/hooks.json", (text) => text.replace('"timeout": 10', '"timeout": 30'));
    const { code, report } = await doctorJson("--only", "codex");
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(problems(report.checks).map((check) => check.message)).toEqual([
      "~/.codex/hooks.json differs from what memctl setup writes: setup would update hooks: SessionStart",
      "Codex skips 1 of memd's 4 hooks, and codex exec says nothing of it: SessionStart (changed in hooks.json since it was trusted)",
    ]);
    await setUp("--only", "codex");
    expect((await doctorJson("--only", "codex")).code).toBe(0);
  });

  it("finds memd's hooks switched off in each agent's own settings", async () => {
    await setUp();
    await startMemd();
    edit(".codex/config.toml", (text) => `${text}\n[features]\nhooks = false\n`);
    edit(".claude/settings.json", (text) => text.replace(/^\{/, '{\n  "disableAllHooks": true,'));
    edit(".gemini/settings.json", (text) => text.replace(/^\{/, '{\n  "hooksConfig": { "disabled": ["memd"] },'));
    const { code, report } = await doctorJson();
    expect(code).toBe(1);
    expect(problems(report.checks)).toEqual([
      { subject: "claude", status: "problem", message: "Claude Code runs no hooks at all: ~/.claude/settings.json sets disableAllHooks", fix: 'remove "disableAllHooks": true from ~/.claude/settings.json' },
      { subject: "codex", status: "problem", message: "Codex runs no hooks at all: ~/.codex/config.toml sets features.hooks = false", fix: "remove features.hooks = false from ~/.codex/config.toml (hooks are on by default)" },
      { subject: "gemini", status: "problem", message: 'Gemini CLI skips memd\'s hooks: ~/.gemini/settings.json lists "memd" in hooksConfig.disabled', fix: "take them out of hooksConfig.disabled in ~/.gemini/settings.json" },
    ]);
  });

  it("finds memd's MCP entry gone from an agent's config", async () => {
    await setUp();
    await startMemd();
    edit(".claude.json", (text) => {
      const state = JSON.parse(text) as { mcpServers: Record<string, unknown> };
      delete state.mcpServers.memd;
      return JSON.stringify(state, null, 2);
    });
    const { code, report } = await doctorJson("--only", "claude");
    expect(code).toBe(1);
    expect(problems(report.checks)).toEqual([
      expect.objectContaining({ subject: "claude", message: expect.stringMatching(/^~\/\.claude\.json differs from what memctl setup writes: setup would add mcpServers\.memd \(stdio: /) }),
    ]);
  });

  it("notes an installed agent memd is not set up for, without failing", async () => {
    await setUp("--only", "claude");
    await startMemd();
    const { code, report } = await doctorJson("--only", "claude,codex");
    expect(code).toBe(0);
    expect(report.checks.find((check) => check.subject === "codex")).toEqual({
      subject: "codex", status: "note", message: "memd is not set up for Codex (~/.codex has none of its hooks or entries)", fix: "memctl setup --only codex",
    });
  });

  it("checks Claude Code's http hooks reach memd on the port setup recorded, and the login service's unit", async () => {
    const setup = await memctl("setup", "--only", "claude,service", "--no-start", "--platform", "linux", "--systemd", "yes");
    expect(setup.code, setup.stderr).toBe(0);
    await startMemd();
    const port = fs.readFileSync(path.join(home, ".memd/listen"), "utf8").trim();
    const { code, report } = await doctorJson("--only", "claude,service", "--platform", "linux");
    expect(report.checks.filter((check) => check.subject !== "memd")).toEqual([
      { subject: "claude", status: "ok", message: "http hooks, MCP server and /memd as memctl setup writes them" },
      { subject: "claude", status: "ok", message: `Claude Code's http hooks reach memd on ${port}` },
      { subject: "service", status: "ok", message: "~/.config/systemd/user/memd.service as memctl setup writes it" },
      { subject: "service", status: "note", message: expect.stringContaining("cannot ask whether memd.service is enabled: no systemd runs on this machine") },
    ]);
    expect(code).toBe(0);

    edit(".config/systemd/user/memd.service", (text) => text.replace("ExecStart=", "ExecStart=/opt/old-memd/bin/node "));
    const changed = await doctorJson("--only", "service", "--platform", "linux");
    expect(changed.code).toBe(1);
    expect(problems(changed.report.checks).map((check) => check.message)).toEqual([
      "~/.config/systemd/user/memd.service differs from what memctl setup writes (another memd installation, or other settings)",
    ]);
  });
});
