import fs from "node:fs";
import http from "node:http";
import Database from "better-sqlite3";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind } from "../../gen/memd/v1/memory_pb.js";
import { freePort, makeHome, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "../hooks/fixtures");

interface Answer {
  status: number;
  body: string;
}

/** One POST as Claude Code's http hook sends it: the payload as the body, a fresh connection. */
function post(target: { socketPath: string } | { port: number }, route: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { ...("port" in target ? { host: "127.0.0.1", port: target.port } : target), method: "POST", path: route, agent: false, headers: { "content-type": "application/json", ...headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

function payload(name: string, extra: Record<string, unknown>): string {
  return JSON.stringify({ ...(JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), "utf8")) as object), ...extra });
}

function contextOf(answer: Answer, event: string): string {
  expect(answer.status).toBe(200);
  const output = JSON.parse(answer.body) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(output.hookSpecificOutput.hookEventName).toBe(event);
  return output.hookSpecificOutput.additionalContext;
}

describe("the Claude Code hook routes (the payloads of test/hooks/fixtures)", () => {
  let daemon: TestDaemon;
  let port: number;
  let token: string;
  let hookToken: string;
  let workspace: string;

  beforeAll(async () => {
    port = await freePort();
    daemon = await spawnDaemon({ args: ["--listen", `127.0.0.1:${port}`] });
    token = fs.readFileSync(path.join(daemon.home, "token"), "utf8").trim();
    hookToken = fs.readFileSync(path.join(daemon.home, "hook-token"), "utf8").trim();
    workspace = fs.mkdtempSync(path.join(daemon.home, "acme-api-"));
    await daemon.clients.memory.save({ content: "Refresh tokens are stored hashed in Postgres (table refresh_tokens), not in Redis.", kind: MemoryKind.DECISION, project: path.basename(workspace) });
  });
  afterAll(async () => {
    await daemon?.stop();
    fs.rmSync(daemon.home, { recursive: true, force: true });
  });

  it("answers UserPromptSubmit on the socket with the pointers, once per session", async () => {
    const prompt = payload("user-prompt-submit", { cwd: workspace, session_id: "route-1", prompt: "Where do we keep the refresh tokens, Postgres or Redis?" });
    const first = contextOf(await post({ socketPath: daemon.socketPath }, "/hooks/claude-code/UserPromptSubmit", prompt), "UserPromptSubmit");
    expect(first).toContain("Refresh tokens are stored hashed in Postgres");
    expect(await post({ socketPath: daemon.socketPath }, "/hooks/claude-code/UserPromptSubmit", prompt)).toEqual({ status: 200, body: "" });
  });

  it("saves a failed command from PostToolUseFailure as a trace, its credentials redacted, and answers with nothing", async () => {
    const failure = payload("post-tool-use-bash-error", {
      cwd: workspace,
      session_id: "route-2",
      tool_input: { command: "curl -u admin:Hunter2-Secret42 https://ci.internal/api/jobs" },
      error: "Exit code 22\ncurl: (22) The requested URL returned error: 503",
    });
    expect(await post({ socketPath: daemon.socketPath }, "/hooks/claude-code/PostToolUseFailure", failure)).toEqual({ status: 200, body: "" });
    const traces = (await daemon.clients.memory.list({ project: path.basename(workspace), kinds: [MemoryKind.TRACE] })).memories;
    expect(traces.map((m) => m.content)).toEqual([expect.stringContaining("Command failed: curl -u admin:[REDACTED:")]);
    expect(traces.map((m) => m.content).join("\n")).not.toContain("Hunter2-Secret42");
  });

  it("takes the hook token on TCP for hook routes only, and refuses browsers, other hosts and no token", async () => {
    const prompt = payload("user-prompt-submit", { cwd: workspace, session_id: "route-3", prompt: "Where do we keep the refresh tokens, Postgres or Redis?" });
    const route = "/hooks/claude-code/UserPromptSubmit";
    const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
    expect(contextOf(await post({ port }, route, prompt, bearer(hookToken)), "UserPromptSubmit")).toContain("refresh_tokens");
    expect((await post({ port }, route, prompt, bearer(token))).status).toBe(200);
    const rpc = await post({ port }, "/memd.v1.MemoryService/List", "{}", bearer(hookToken));
    expect(rpc.status).toBe(401);
    expect(JSON.parse(rpc.body)).toMatchObject({ code: "unauthenticated" });
    expect((await post({ port }, route, prompt)).status).toBe(401);
    expect((await post({ port }, route, prompt, { ...bearer(hookToken), origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ port }, route, prompt, { ...bearer(hookToken), host: "evil.example" })).status).toBe(403);
    expect(fs.statSync(path.join(daemon.home, "hook-token")).mode & 0o777).toBe(0o600);
  });

  it("refuses a wrong token with 401 while the agent still sends its payload, never cutting the connection under its write", async () => {
    const route = "/hooks/claude-code/UserPromptSubmit";
    const prompt = payload("user-prompt-submit", { cwd: workspace, session_id: "route-epipe", prompt: `Why? ${"context ".repeat(5_000)}` });
    const statuses = [];
    for (let i = 0; i < 200; i += 1) statuses.push((await post({ port }, route, prompt, { authorization: "Bearer wrong" })).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
  });

  it("answers Codex's UserPromptSubmit and SessionStart, in the same format, and no Codex event memd does not take", async () => {
    const socket = { socketPath: daemon.socketPath };
    const prompt = payload("codex-user-prompt-submit", { cwd: workspace });
    expect(contextOf(await post(socket, "/hooks/codex/UserPromptSubmit", prompt), "UserPromptSubmit")).toContain("Refresh tokens are stored hashed in Postgres");
    expect(contextOf(await post(socket, "/hooks/codex/SessionStart", payload("codex-session-start", { cwd: workspace, session_id: "codex-2" })), "SessionStart")).toContain("refresh_tokens");
    expect((await post(socket, "/hooks/codex/PostToolUse", "{}")).status).toBe(404);
  });

  it("answers Gemini CLI's BeforeAgent and SessionStart with additionalContext under the event's own name", async () => {
    const socket = { socketPath: daemon.socketPath };
    // Gemini CLI's base fields and BeforeAgent's prompt (google-gemini/gemini-cli docs/hooks/reference.md); values invented.
    const base = { session_id: "gemini-1", transcript_path: "/home/maya/.gemini/tmp/chats/session-1.json", cwd: workspace, timestamp: "2026-12-01T09:41:12.300Z" };
    const prompt = JSON.stringify({ ...base, hook_event_name: "BeforeAgent", prompt: "Where do we keep the refresh tokens, Postgres or Redis?" });
    expect(contextOf(await post(socket, "/hooks/gemini/BeforeAgent", prompt), "BeforeAgent")).toContain("Refresh tokens are stored hashed in Postgres");
    const start = JSON.stringify({ ...base, session_id: "gemini-2", hook_event_name: "SessionStart", source: "startup" });
    expect(contextOf(await post(socket, "/hooks/gemini/SessionStart", start), "SessionStart")).toContain("refresh_tokens");
    expect((await post(socket, "/hooks/gemini/UserPromptSubmit", prompt)).status).toBe(404);
  });

  it("answers Copilot CLI's camelCase sessionStart and userPromptSubmitted with a top-level additionalContext", async () => {
    const socket = { socketPath: daemon.socketPath };
    // Copilot CLI's camelCase fields (github/docs content/copilot/reference/hooks-reference.md); values invented.
    const prompt = JSON.stringify({ sessionId: "copilot-1", timestamp: 1764582072300, cwd: workspace, prompt: "Where do we keep the refresh tokens, Postgres or Redis?" });
    const answer = await post(socket, "/hooks/copilot/userPromptSubmitted", prompt);
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { additionalContext: string }).additionalContext).toContain("Refresh tokens are stored hashed in Postgres");
    const start = await post(socket, "/hooks/copilot/sessionStart", JSON.stringify({ sessionId: "copilot-2", timestamp: 1764582072300, cwd: workspace, source: "new" }));
    expect((JSON.parse(start.body) as { additionalContext: string }).additionalContext).toContain("refresh_tokens");
  });

  it("answers Cursor's sessionStart, whose folder comes in workspace_roots, with additional_context", async () => {
    // Cursor's common fields (cursor.com/docs/hooks): no cwd, the workspace's folders instead; values invented.
    const start = JSON.stringify({ conversation_id: "cursor-1", session_id: "cursor-1", generation_id: "g-1", hook_event_name: "sessionStart", workspace_roots: [workspace], is_background_agent: false, composer_mode: "agent" });
    const answer = await post({ socketPath: daemon.socketPath }, "/hooks/cursor/sessionStart", start);
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { additional_context: string }).additional_context).toContain("refresh_tokens");
  });

  it("answers an unknown route and a payload that is not JSON with a Connect error", async () => {
    const socket = { socketPath: daemon.socketPath };
    const unknown = await post(socket, "/hooks/claude-code/NoSuchEvent", "{}");
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: "not_found" });
    const garbled = await post(socket, "/hooks/claude-code/UserPromptSubmit", "{not json");
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body)).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/^the UserPromptSubmit payload is not the agent's hook JSON/) });
    expect((await daemon.clients.admin.health({})).health?.pid).toBe(daemon.process.pid);
  });
});

describe("the address recorded in MEMD_HOME/listen", () => {
  it("is served when nothing else names one, so that http hooks keep their URL across restarts", async () => {
    const home = makeHome();
    const port = await freePort();
    fs.writeFileSync(path.join(home, "listen"), `127.0.0.1:${port}\n`, { mode: 0o600 });
    const daemon = await spawnDaemon({ home });
    try {
      const hookToken = fs.readFileSync(path.join(home, "hook-token"), "utf8").trim();
      const answer = await post({ port }, "/hooks/claude-code/Stop", payload("session-end", { hook_event_name: "Stop" }), { authorization: `Bearer ${hookToken}` });
      expect(answer).toEqual({ status: 200, body: "" });
    } finally {
      await daemon.stop();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("hostile payloads on the hook routes (fast-check, fixed seed)", () => {
  let daemon: TestDaemon;
  let workspace: string;
  beforeAll(async () => {
    daemon = await spawnDaemon();
    workspace = fs.mkdtempSync(path.join(daemon.home, "ws-"));
  });
  afterAll(async () => {
    await daemon?.stop();
    fs.rmSync(daemon.home, { recursive: true, force: true });
  });

  it("answers every malformed or oversized payload of every event with a documented code, never internal, and stays up", async () => {
    const events = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact", "SessionEnd", "Stop"];
    // Claude Code's fields with values of any JSON type, a path under the sandbox or not, or any text at all.
    const field = fc.oneof(fc.jsonValue(), fc.string({ maxLength: 3000 }), fc.constantFrom(workspace, "relative/dir", "/nonexistent/x.jsonl", "\u0000", "é".repeat(5000)));
    const payloadOf = fc.oneof(
      fc.record(
        { session_id: field, cwd: field, transcript_path: field, prompt: field, source: field, tool_name: fc.oneof(fc.constantFrom("Bash", "Write", "Edit"), field), tool_input: field, tool_response: field, error: field, is_interrupt: field },
        { requiredKeys: [] },
      ).map((record) => JSON.stringify(record)),
      fc.string({ maxLength: 2000 }),
      fc.jsonValue().map((value) => JSON.stringify(value)),
    );
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...events), payloadOf, async (event, body) => {
        const answer = await post({ socketPath: daemon.socketPath }, `/hooks/claude-code/${event}`, body);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        expect([200, 400, 404, 409, 412, 413, 429, 503]).toContain(answer.status);
        if (answer.status !== 200) expect(JSON.parse(answer.body)).toMatchObject({ code: expect.not.stringMatching(/^(internal|unknown)$/) });
      }),
      { numRuns: Number(process.env.MEMD_HOSTILE_RUNS ?? 400), seed: Number(process.env.MEMD_HOSTILE_SEED ?? 20_261_201) },
    );
    expect((await daemon.clients.admin.health({})).health?.pid).toBe(daemon.process.pid);
    expect(statuses.get(200)).toBeGreaterThan(0);
  });
});

describe("a recorded address that cannot be served", () => {
  it("leaves memd running on its socket, and says why in the log, when another program holds the port or the file is garbled", async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    for (const recorded of [`127.0.0.1:${port}\n`, "not an address\n"]) {
      const home = makeHome();
      fs.writeFileSync(path.join(home, "listen"), recorded, { mode: 0o600 });
      const daemon = await spawnDaemon({ home });
      try {
        expect((await daemon.clients.admin.health({})).health?.pid).toBe(daemon.process.pid);
        expect(fs.readFileSync(path.join(home, "logs/memd.log"), "utf8")).toMatch(/cannot listen on the address setup recorded|the recorded listen address is unusable/);
      } finally {
        await daemon.stop();
        fs.rmSync(home, { recursive: true, force: true });
      }
    }
    await new Promise((resolve) => taken.close(resolve));
  });
});

describe("a hook route while another process holds the write lock", () => {
  it("waits for the lock within its budget, as an RPC does, and saves the trace once it is gone", async () => {
    const daemon = await spawnDaemon();
    const outside = new Database(path.join(daemon.home, "memd.db"));
    try {
      const workspace = fs.mkdtempSync(path.join(daemon.home, "acme-api-"));
      await daemon.clients.memory.save({ content: "the workspace exists", project: path.basename(workspace) });
      outside.exec("BEGIN IMMEDIATE");
      setTimeout(() => outside.exec("COMMIT"), 300);
      const failure = payload("post-tool-use-bash-error", { cwd: workspace, session_id: "locked-1" });
      expect(await post({ socketPath: daemon.socketPath }, "/hooks/claude-code/PostToolUseFailure", failure)).toEqual({ status: 200, body: "" });
      const traces = (await daemon.clients.memory.list({ project: path.basename(workspace), kinds: [MemoryKind.TRACE] })).memories;
      expect(traces).toHaveLength(1);
    } finally {
      if (outside.inTransaction) outside.exec("ROLLBACK");
      outside.close();
      await daemon.stop();
      fs.rmSync(daemon.home, { recursive: true, force: true });
    }
  });
});
