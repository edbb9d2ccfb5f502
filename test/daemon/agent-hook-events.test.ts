// The after-tool and session-end routes of the agents other than Claude Code, fed the payloads of
// test/hooks/fixtures (sources in its README) against a real daemon on a temporary home.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Memory, MemoryKind, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { REPO_ROOT, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { until } from "../helpers/until.js";

const HOOK_FIXTURES = path.join(REPO_ROOT, "test/hooks/fixtures");
const CAPTURE_FIXTURES = path.join(REPO_ROOT, "test/capture/fixtures");
const BOTH = [MemoryStatus.ACTIVE, MemoryStatus.STAGED];

function fixture(name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...(JSON.parse(fs.readFileSync(path.join(HOOK_FIXTURES, `${name}.json`), "utf8")) as object), ...extra });
}

/** One POST to a hook route over the daemon's socket, as the curl shim sends it. */
function post(socketPath: string, route: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, method: "POST", path: route, agent: false, headers: { "content-type": "application/json" } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}


describe("other agents' failure and sweep routes against a running daemon", () => {
  let daemon: TestDaemon;
  let userHome: string;
  const workspaces: string[] = [];
  // Each test works in a project of its own: the fixtures' failures read alike, and a save of
  // what a project already holds is merged into it.
  let workspace = "";
  const traces = async (sessionId: string): Promise<Memory[]> =>
    (await daemon.clients.memory.list({ project: path.basename(workspace), sessionId, kinds: [MemoryKind.TRACE] })).memories;
  const sessionMemories = async (sessionId: string): Promise<Memory[]> =>
    (await daemon.clients.memory.list({ project: path.basename(workspace), sessionId, statuses: BOTH })).memories;

  beforeAll(async () => {
    // The daemon's own home directory, where Copilot CLI keeps the transcripts its sessionEnd does not name.
    userHome = fs.mkdtempSync(path.join(os.tmpdir(), "memd-user-"));
    daemon = await spawnDaemon({ env: { HOME: userHome } });
  });
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), "acme-api-"));
    workspaces.push(workspace);
  });
  afterAll(async () => {
    await daemon?.stop();
    for (const dir of [daemon.home, userHome, ...workspaces]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("saves Gemini CLI's failed run_shell_command from AfterTool with its exit code, and nothing for one that passed", async () => {
    const failed = fixture("gemini-after-tool-shell-failed", { cwd: workspace, session_id: "gemini-fail" });
    expect(await post(daemon.socketPath, "/hooks/gemini/AfterTool", failed)).toEqual({ status: 200, body: "" });
    const [trace, ...more] = await traces("gemini-fail");
    expect(more).toEqual([]);
    expect(trace?.content).toMatch(/^Command failed: pnpm test src\/auth\nExit code 1\n/);
    expect(trace?.content).toContain("AssertionError: expected null to deeply equal");
    expect(trace?.content).not.toMatch(/untrusted_context|Process Group PGID|Exit Code: 1/);
    expect(trace?.sourceAgent).toBe("gemini");
    const passed = fixture("gemini-after-tool-shell-failed", {
      cwd: workspace,
      session_id: "gemini-pass",
      tool_response: { llmContent: "<untrusted_context>\nOutput: 3 passed\nProcess Group PGID: 4821\n</untrusted_context>", returnDisplay: "3 passed" },
    });
    expect(await post(daemon.socketPath, "/hooks/gemini/AfterTool", passed)).toEqual({ status: 200, body: "" });
    expect(await traces("gemini-pass")).toEqual([]);
  });

  it("saves Copilot CLI's command whose postToolUse reports success with a non-zero exit trailer, and its postToolUseFailure", async () => {
    const failed = fixture("copilot-post-tool-use-failed", { cwd: workspace, sessionId: "copilot-fail" });
    expect(await post(daemon.socketPath, "/hooks/copilot/postToolUse", failed)).toEqual({ status: 200, body: "" });
    const [trace] = await traces("copilot-fail");
    expect(trace?.content).toMatch(/^Command failed: pnpm test src\/auth\nExit code 1\n/);
    expect(trace?.content).not.toContain("<shellId");
    expect(trace?.sourceAgent).toBe("copilot");
    // Older builds: toolArgs as JSON in a string, and the "<exited with exit code N>" trailer.
    const older = fixture("copilot-post-tool-use-failed", {
      cwd: workspace,
      sessionId: "copilot-older",
      toolArgs: JSON.stringify({ command: "go build ./..." }),
      toolResult: { resultType: "success", textResultForLlm: "main.go:3:2: undefined: fmtx\n<exited with exit code 2>" },
    });
    await post(daemon.socketPath, "/hooks/copilot/postToolUse", older);
    expect((await traces("copilot-older")).map((m) => m.content)).toEqual(["Command failed: go build ./...\nExit code 2\nmain.go:3:2: undefined: fmtx"]);
    const passed = fixture("copilot-post-tool-use-failed", { cwd: workspace, sessionId: "copilot-pass", toolResult: { resultType: "success", textResultForLlm: "ok\n<shellId: 0 completed with exit code 0>" } });
    await post(daemon.socketPath, "/hooks/copilot/postToolUse", passed);
    expect(await traces("copilot-pass")).toEqual([]);
    const toolFailed = JSON.stringify({ sessionId: "copilot-tool", timestamp: 1796117469412, cwd: workspace, toolName: "bash", toolArgs: { command: "make deploy" }, error: "bash: make: command not found" });
    await post(daemon.socketPath, "/hooks/copilot/postToolUseFailure", toolFailed);
    expect((await traces("copilot-tool")).map((m) => m.content)).toEqual(["Command failed: make deploy\nbash: make: command not found"]);
  });

  it("saves Cursor's failed Shell from postToolUseFailure, and nothing for a denied or interrupted one", async () => {
    const failed = fixture("cursor-post-tool-use-failure-shell", { cwd: workspace, workspace_roots: [workspace], session_id: "cursor-fail" });
    expect(await post(daemon.socketPath, "/hooks/cursor/postToolUseFailure", failed)).toEqual({ status: 200, body: "" });
    const [trace] = await traces("cursor-fail");
    expect(trace?.content).toMatch(/^Command failed: pnpm test src\/auth\n/);
    expect(trace?.sourceAgent).toBe("cursor");
    for (const [sessionId, extra] of [["cursor-denied", { failure_type: "permission_denied" }], ["cursor-stopped", { is_interrupt: true }]] as const) {
      await post(daemon.socketPath, "/hooks/cursor/postToolUseFailure", fixture("cursor-post-tool-use-failure-shell", { cwd: workspace, session_id: sessionId, ...extra }));
      expect(await traces(sessionId)).toEqual([]);
    }
  });

  it("sweeps the Codex rollout on Stop, the end of each turn, into the failure-then-fix episode, once however many turns end", async () => {
    const rollout = path.join(workspace, "rollout-2026-05-20T09-00-00-codex.jsonl");
    fs.copyFileSync(path.join(CAPTURE_FIXTURES, "codex-rollout.jsonl"), rollout);
    const stop = JSON.stringify({ session_id: "codex-sweep", turn_id: "t1", transcript_path: rollout, cwd: workspace, hook_event_name: "Stop", model: "gpt-5.5", permission_mode: "default", stop_hook_active: false, last_assistant_message: "Fixed." });
    expect(await post(daemon.socketPath, "/hooks/codex/Stop", stop)).toEqual({ status: 200, body: "" });
    const memories = await until(() => sessionMemories("codex-sweep"), (found) => found.some((m) => m.kind === MemoryKind.EPISODE));
    const episode = memories.find((m) => m.kind === MemoryKind.EPISODE);
    expect(episode?.content).toContain("pnpm test src/cart");
    expect(episode?.sourceAgent).toBe("codex");
    // A second turn's Stop sweeps the same rollout again: nothing is saved twice.
    expect(await post(daemon.socketPath, "/hooks/codex/Stop", stop)).toEqual({ status: 200, body: "" });
    const pre = JSON.stringify({ session_id: "codex-sweep", turn_id: "t2", transcript_path: rollout, cwd: workspace, hook_event_name: "PreCompact", model: "gpt-5.5", trigger: "auto" });
    expect(await post(daemon.socketPath, "/hooks/codex/PreCompact", pre)).toEqual({ status: 200, body: "" });
    await until(() => Promise.resolve(sweepsLogged(daemon.home, "codex-sweep")), (count) => count >= 3);
    expect(sweepsLogged(daemon.home, "codex-sweep")).toBe(3);
    expect((await sessionMemories("codex-sweep")).map((m) => m.id).sort()).toEqual(memories.map((m) => m.id).sort());
  });

  it("sweeps Copilot CLI's session events on sessionEnd, which names no file, from ~/.copilot/session-state", async () => {
    const sessionId = "c4ab6e92-d285-404d-8cf7-c8cb6006334e";
    const state = path.join(userHome, ".copilot", "session-state", sessionId);
    fs.mkdirSync(state, { recursive: true });
    fs.copyFileSync(path.join(CAPTURE_FIXTURES, "copilot-transcript.jsonl"), path.join(state, "events.jsonl"));
    expect(await post(daemon.socketPath, "/hooks/copilot/sessionEnd", fixture("copilot-session-end", { cwd: workspace }))).toEqual({ status: 200, body: "" });
    const memories = await until(() => sessionMemories(sessionId), (found) => found.some((m) => m.kind === MemoryKind.EPISODE));
    expect(memories.find((m) => m.kind === MemoryKind.EPISODE)?.sourceAgent).toBe("copilot");
    expect(sweepsLogged(daemon.home, sessionId)).toBe(1);
    // A session id that could leave the session-state folder is not made into a path.
    expect(await post(daemon.socketPath, "/hooks/copilot/sessionEnd", fixture("copilot-session-end", { cwd: workspace, sessionId: "../../etc" }))).toEqual({ status: 200, body: "" });
  });

  it("sweeps Copilot CLI's session when its events.jsonl is written only after the sessionEnd hook (as under load)", async () => {
    const sessionId = "5e1f0c2a-7b3d-4e8f-9a6b-1c2d3e4f5a6b";
    const state = path.join(userHome, ".copilot", "session-state", sessionId);
    expect(await post(daemon.socketPath, "/hooks/copilot/sessionEnd", fixture("copilot-session-end", { cwd: workspace, sessionId }))).toEqual({ status: 200, body: "" });
    // Copilot creates the folder and flushes its events once the hook has answered.
    fs.mkdirSync(state, { recursive: true });
    const events = fs.readFileSync(path.join(CAPTURE_FIXTURES, "copilot-transcript.jsonl"), "utf8").replaceAll("c4ab6e92-d285-404d-8cf7-c8cb6006334e", sessionId);
    fs.writeFileSync(path.join(state, "events.jsonl"), events);
    const memories = await until(() => sessionMemories(sessionId), (found) => found.some((m) => m.kind === MemoryKind.EPISODE));
    expect(memories.find((m) => m.kind === MemoryKind.EPISODE)?.sourceAgent).toBe("copilot");
    expect(sweepsLogged(daemon.home, sessionId)).toBe(1);
  });

  it("sweeps Gemini CLI's chat recording on SessionEnd and PreCompress, and saves nothing twice", async () => {
    const recording = path.join(workspace, "session-2026-12-01T09-31-5b0f3c1e.jsonl");
    fs.copyFileSync(path.join(CAPTURE_FIXTURES, "gemini-transcript.jsonl"), recording);
    const sessionId = "5b0f3c1e-8d2a-4f6b-9c7e-2a1d4e8f6b03";
    const end = fixture("gemini-session-end", { cwd: workspace, transcript_path: recording });
    expect(await post(daemon.socketPath, "/hooks/gemini/SessionEnd", end)).toEqual({ status: 200, body: "" });
    const memories = await until(() => sessionMemories(sessionId), (found) => found.some((m) => m.kind === MemoryKind.EPISODE));
    expect(memories.find((m) => m.kind === MemoryKind.EPISODE)?.sourceAgent).toBe("gemini");
    await post(daemon.socketPath, "/hooks/gemini/PreCompress", fixture("gemini-pre-compress", { cwd: workspace, transcript_path: recording }));
    await until(() => Promise.resolve(sweepsLogged(daemon.home, sessionId)), (count) => count >= 2);
    expect((await sessionMemories(sessionId)).map((m) => m.id).sort()).toEqual(memories.map((m) => m.id).sort());
  });
});

/** The daemon's "transcript swept" log lines for a session. */
function sweepsLogged(home: string, sessionId: string): number {
  const log = fs.readFileSync(path.join(home, "logs", "memd.log"), "utf8");
  return log.split("\n").filter((line) => line.includes('"msg":"transcript swept"') && line.includes(`"sessionId":"${sessionId}"`)).length;
}
