import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { type CliResult, makeHome, REPO_ROOT, runCommand, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const HOOK_BIN = path.join(REPO_ROOT, "dist/hooks/src/main.js");
const CURL_SHIM = path.join(REPO_ROOT, "hooks/memd-hook.sh");

/** The two command-hook shims setup can write: curl under sh, and Node's memd-hook where curl is missing. */
const SHIMS: [string, (event: string) => [string, string[]]][] = [
  ["memd-hook.sh (curl)", (event) => ["/bin/sh", [CURL_SHIM, event, process.execPath, HOOK_BIN]]],
  ["memd-hook (node)", (event) => [process.execPath, [HOOK_BIN, event]]],
];
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
/** Happy-path runs get a generous budget: the tests share two cores with other test files. */
const RELAXED_BUDGET = { MEMD_HOOK_TIMEOUT_MS: "10000" };

let shim: (event: string) => [string, string[]];

function runHook(home: string, event: string, payload: unknown, env: Record<string, string> = RELAXED_BUDGET, input = JSON.stringify(payload)): Promise<CliResult> {
  const [command, args] = shim(event);
  return runCommand(command, args, { env: { ...process.env, MEMD_HOME: home, MEMD_HOOK_TIMEOUT_MS: "", ...env }, input });
}

/** A fixture from Claude Code's hook payloads, moved into a temp workspace and a fresh session. */
function fixture(name: string, workspace: string, sessionId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const payload = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), "utf8")) as Record<string, unknown>;
  return {
    ...payload,
    session_id: sessionId,
    cwd: workspace,
    transcript_path: path.join(workspace, ".claude-home", `${sessionId}.jsonl`),
    ...extra,
  };
}

function contextOf(run: CliResult, event: string): string {
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
  const output = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(output.hookSpecificOutput.hookEventName).toBe(event);
  return output.hookSpecificOutput.additionalContext;
}

function hookLogLines(home: string): string[] {
  const file = path.join(home, "logs", "hooks.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : [];
}

describe.each(SHIMS)("%s", (_name, command) => {
beforeAll(() => {
  shim = command;
});

describe("against a running daemon", () => {
  let daemon: TestDaemon;
  let workspace: string;
  let project: string;

  beforeAll(async () => {
    daemon = await spawnDaemon();
    workspace = fs.mkdtempSync(path.join(daemon.home, "acme-api-"));
    project = path.basename(workspace);
    const save = (content: string, kind: MemoryKind, where: string) => daemon.clients.memory.save({ content, kind, project: where });
    await save("The user wants commit messages in the imperative mood, under 72 characters.", MemoryKind.PREFERENCE, "global");
    await save("Refresh tokens are stored hashed in Postgres (table refresh_tokens), not in Redis.", MemoryKind.DECISION, project);
    await save("The sidebar uses CSS modules; class names are camelCase.", MemoryKind.FACT, project);
    await save("The nightly backup job copies the uploads bucket to cold storage.", MemoryKind.FACT, project);
  });
  afterAll(async () => {
    await daemon.stop();
    fs.rmSync(daemon.home, { recursive: true, force: true });
  });

  it("briefs a new session with the user's global preferences and the project's decisions", async () => {
    const run = await runHook(daemon.home, "SessionStart", fixture("session-start", workspace, "start-1"));
    const context = contextOf(run, "SessionStart");
    expect(context).toContain("commit messages in the imperative mood");
    expect(context).toContain("Refresh tokens are stored hashed in Postgres");
    expect(context.split("\n").filter((line) => line.startsWith("- ")).length).toBeLessThanOrEqual(8);
  });

  it("points to a relevant memory once per session and says nothing for an unrelated or chatty prompt", async () => {
    const payload = fixture("user-prompt-submit", workspace, "prompt-1");
    const first = contextOf(await runHook(daemon.home, "UserPromptSubmit", payload), "UserPromptSubmit");
    expect(first).toContain("Refresh tokens are stored hashed in Postgres");
    expect(first.split("\n").filter((line) => line.startsWith("- ")).length).toBeLessThanOrEqual(3);

    const again = await runHook(daemon.home, "UserPromptSubmit", payload);
    expect(again).toEqual({ code: 0, stdout: "", stderr: "" });

    const unrelated = fixture("user-prompt-submit", workspace, "prompt-2", {
      prompt: "Rename the onboarding wizard's third step and make its illustration load lazily.",
    });
    expect(await runHook(daemon.home, "UserPromptSubmit", unrelated)).toEqual({ code: 0, stdout: "", stderr: "" });

    const chatty = fixture("user-prompt-submit", workspace, "prompt-3", { prompt: "ok thanks, go ahead" });
    expect(await runHook(daemon.home, "UserPromptSubmit", chatty)).toEqual({ code: 0, stdout: "", stderr: "" });

    // The daemon remembers what each session was given; the hook keeps no files of its own.
    expect(fs.existsSync(path.join(daemon.home, "hooks"))).toBe(false);
  });

  it("saves a Claude Code memory note written with Write as a human-stated preference", async () => {
    const notePath = path.join(workspace, ".claude", "projects", "-acme-api", "memory", "feedback_package_manager.md");
    const payload = fixture("post-tool-use-write-md", workspace, "tool-1");
    payload.tool_input = { ...(payload.tool_input as Record<string, unknown>), file_path: notePath };
    const run = await runHook(daemon.home, "PostToolUse", payload);
    expect(run).toEqual({ code: 0, stdout: "", stderr: "" });

    const { memories } = await daemon.clients.memory.list({ project, kinds: [MemoryKind.PREFERENCE] });
    const note = memories.find((m) => m.content.startsWith("Always use pnpm in acme-api"));
    expect(note?.provenance).toBe(Provenance.HUMAN);
    expect(note?.concepts).toContain("pnpm only in acme-api");
    expect(note?.content).not.toContain("type: feedback");
    expect(note?.sessionId).toBe("tool-1");
  });

  it("saves a failed Bash command as a trace with the command and the start of its error", async () => {
    const run = await runHook(daemon.home, "PostToolUseFailure", fixture("post-tool-use-bash-error", workspace, "tool-2"));
    expect(run).toEqual({ code: 0, stdout: "", stderr: "" });

    const { memories } = await daemon.clients.memory.list({ project, kinds: [MemoryKind.TRACE] });
    expect(memories).toHaveLength(1);
    expect(memories[0]?.content).toContain("pnpm test src/auth src/middleware");
    expect(memories[0]?.content).toContain("Exit code 1");
    expect(memories[0]?.content).toContain("AssertionError");
  });

  it("answers Codex's prompt on its own route when told the agent", async () => {
    const [command, args] = shim("user-prompt-submit");
    const run = await runCommand(command, [...args, "codex"], {
      env: { ...process.env, MEMD_HOME: daemon.home, ...RELAXED_BUDGET },
      input: JSON.stringify({ ...(JSON.parse(fs.readFileSync(path.join(FIXTURES, "codex-user-prompt-submit.json"), "utf8")) as object), cwd: workspace, session_id: "codex-1" }),
    });
    expect(contextOf(run, "UserPromptSubmit")).toContain("Refresh tokens are stored hashed in Postgres");
  });

  it("exits quietly on SessionEnd and PreCompact", async () => {
    expect(await runHook(daemon.home, "SessionEnd", fixture("session-end", workspace, "end-1"))).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await runHook(daemon.home, "PreCompact", fixture("pre-compact", workspace, "end-1"))).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe("fails open", () => {
  const payloads = (workspace: string): [string, Record<string, unknown>][] => [
    ["SessionStart", fixture("session-start", workspace, "down-1")],
    ["UserPromptSubmit", fixture("user-prompt-submit", workspace, "down-1")],
    ["PostToolUse", fixture("post-tool-use-write-md", workspace, "down-1")],
    ["PostToolUseFailure", fixture("post-tool-use-bash-error", workspace, "down-1")],
  ];

  it("exits 0 with no output and logs one line per event when no daemon is running", async () => {
    const home = makeHome();
    try {
      const workspace = fs.mkdtempSync(path.join(home, "ws-"));
      for (const [event, payload] of payloads(workspace)) {
        expect(await runHook(home, event, payload)).toEqual({ code: 0, stdout: "", stderr: "" });
      }
      const lines = hookLogLines(home);
      expect(lines).toHaveLength(4);
      expect(lines.every((line) => line.includes("daemon call failed"))).toBe(true);
      // Which socket: curl alone says "Failed to connect to localhost port 80".
      expect(lines.every((line) => line.includes(`memd is not running (nothing answers on ${path.join(home, "memd.sock")})`))).toBe(true);
      expect(fs.statSync(path.join(home, "logs", "hooks.log")).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(home, "logs")).mode & 0o777).toBe(0o700);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it("gives up within its budget, silently, when the daemon accepts but never answers", async () => {
    const home = makeHome();
    const sockets: net.Socket[] = [];
    const server = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(path.join(home, "memd.sock"), resolve));
    try {
      const workspace = fs.mkdtempSync(path.join(home, "ws-"));
      for (const [event, payload] of payloads(workspace)) {
        // The default budgets (300 ms for prompts, 1 s otherwise) apply here.
        expect(await runHook(home, event, payload, {})).toEqual({ code: 0, stdout: "", stderr: "" });
      }
      expect(sockets.length).toBeGreaterThan(0);
      const lines = hookLogLines(home);
      expect(lines).toHaveLength(4);
      expect(lines.every((line) => line.includes("budget"))).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it("exits 0 with no output on a payload that is not JSON", async () => {
    const home = makeHome();
    try {
      expect(await runHook(home, "UserPromptSubmit", null, {}, "not json {")).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(hookLogLines(home)).toHaveLength(1);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
});

describe("memd-hook.sh where curl is missing", () => {
  it("runs memd-hook instead, with the same answer", async () => {
    const daemon = await spawnDaemon();
    try {
      const workspace = fs.mkdtempSync(path.join(daemon.home, "acme-api-"));
      await daemon.clients.memory.save({ content: "Refresh tokens are stored hashed in Postgres (table refresh_tokens), not in Redis.", kind: MemoryKind.DECISION, project: path.basename(workspace) });
      // A PATH with no curl on it (nor anything else: the shim names node by its absolute path).
      const emptyBin = fs.mkdtempSync(path.join(daemon.home, "bin-"));
      const run = await runCommand("/bin/sh", [CURL_SHIM, "user-prompt-submit", process.execPath, HOOK_BIN], {
        env: { ...process.env, PATH: emptyBin, MEMD_HOME: daemon.home, ...RELAXED_BUDGET },
        input: JSON.stringify(fixture("user-prompt-submit", workspace, "no-curl-1")),
      });
      expect(contextOf(run, "UserPromptSubmit")).toContain("Refresh tokens are stored hashed in Postgres");
    } finally {
      await daemon.stop();
      fs.rmSync(daemon.home, { recursive: true, force: true });
    }
  });
});
