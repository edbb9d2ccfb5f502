// The injection record against a real daemon: what Brief, Suggest and Recall gave, through the
// RPCs, the agents' hook routes (Claude Code's and OpenCode's), memctl and History.
import fs from "node:fs";
import path from "node:path";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InjectionKind } from "../../gen/memd/v1/injection_service_pb.js";
import { MemoryKind } from "../../gen/memd/v1/memory_pb.js";
import { o200kTokens } from "../../daemon/src/injections/token-count.js";
import { forwardHookEvent } from "../../hooks/src/forward-event.js";
import { makeHome, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawRequest } from "../helpers/raw-http.js";
import { refusalCode } from "../helpers/refusal.js";

const GITHUB_TOKEN = "ghp_R8x2Lq9ZtVb4Nc7Mw1Ks5Jd3Hf6Gy0Pa2Ue8";

describe("the injection record", () => {
  let home: string;
  let daemon: TestDaemon;
  let workspace: string;
  let refresh: string;
  let deploy: string;

  beforeAll(async () => {
    home = makeHome();
    daemon = await spawnDaemon({ home });
    workspace = fs.mkdtempSync(path.join(home, "billing-"));
    const save = async (content: string, kind: MemoryKind) => (await daemon.clients.memory.save({ content, kind, cwd: workspace })).memory?.id ?? "";
    refresh = await save("Refresh tokens are stored hashed in Postgres (table refresh_tokens), not in Redis.", MemoryKind.DECISION);
    deploy = await save("We deploy the billing service with Argo CD from the deploy repo.", MemoryKind.DECISION);
  });
  afterAll(async () => {
    await daemon.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const list = (sessionId: string) => daemon.clients.injections.listInjections({ sessionId }).then((res) => res.injections);

  it("records a briefing with its memories, each zone as the reason, and the o200k_base tokens of its text", async () => {
    const brief = await daemon.clients.memory.brief({ cwd: workspace, sessionId: "brief-1", sourceAgent: "codex", via: "SessionStart" });
    const [record, ...rest] = await list("brief-1");
    expect(rest).toEqual([]);
    expect(record).toMatchObject({ kind: InjectionKind.BRIEFING, agent: "codex", via: "SessionStart", project: brief.project, prompt: "", text: brief.text });
    expect(record?.tokens).toBe(o200kTokens(brief.text));
    expect(record?.tokens).toBeGreaterThan(0);
    expect(record?.memories.map((m) => [m.memoryId, m.kind, m.why, m.score])).toEqual(
      brief.items.map((item) => [item.memoryId, MemoryKind.DECISION, "the project's decisions and facts", 0]),
    );
  });

  it("records a prompt's pointers with their scores and reasons and the prompt redacted, and a prompt that got nothing", async () => {
    const prompt = `Add a cleanup migration for expired rows in refresh_tokens (CI uses ${GITHUB_TOKEN})`;
    const pointed = await daemon.clients.memory.suggest({ query: prompt, cwd: workspace, sessionId: "prompt-1", sourceAgent: "gemini", via: "BeforeAgent" });
    expect(pointed.pointers.map((p) => p.id)).toEqual([refresh]);
    await daemon.clients.memory.suggest({ query: "ok, go ahead", cwd: workspace, sessionId: "prompt-1", sourceAgent: "gemini", via: "BeforeAgent" });
    const [nothing, pointers] = await list("prompt-1");
    expect(nothing).toMatchObject({ kind: InjectionKind.POINTERS, prompt: "ok, go ahead", memories: [], tokens: 0, text: "" });
    expect(pointers).toMatchObject({ kind: InjectionKind.POINTERS, agent: "gemini", via: "BeforeAgent", text: pointed.text, tokens: o200kTokens(pointed.text) });
    expect(pointers?.prompt).toBe("Add a cleanup migration for expired rows in refresh_tokens (CI uses [REDACTED:github-token])");
    expect(pointers?.memories).toEqual([expect.objectContaining({ memoryId: refresh, kind: MemoryKind.DECISION, line: pointed.pointers[0]?.line, score: pointed.pointers[0]?.score, why: pointed.pointers[0]?.why })]);
    const { totals } = await daemon.clients.injections.summarizeInjections({ sessionId: "prompt-1" });
    expect(totals).toEqual([expect.objectContaining({ agent: "gemini", injections: 1, prompts: 2, emptyPrompts: 1, briefings: 0, recalls: 0, tokens: BigInt(o200kTokens(pointed.text)) })]);
  });

  it("records a recall with how each memory was found, its text counted as the answer carried it", async () => {
    const res = await daemon.clients.memory.recall({ query: "argo cd deploy", cwd: workspace, depth: 2, sessionId: "mcp-1", sourceAgent: "claude-code", via: "memory_search" });
    expect(res.memories.map((m) => m.id)).toContain(deploy);
    const [record] = await list("mcp-1");
    expect(record).toMatchObject({ kind: InjectionKind.RECALL, via: "memory_search", prompt: "argo cd deploy" });
    expect(record?.memories.find((m) => m.memoryId === deploy)?.why).toMatch(/^keyword rank \d/);
    expect(record?.text).toContain(`${deploy}\nWe deploy the billing service with Argo CD from the deploy repo.`);
    expect(record?.tokens).toBe(o200kTokens(record?.text ?? ""));
  });

  it("records the briefing and pointers Claude Code's and OpenCode's hook routes gave, under the agent and its event", async () => {
    // A procedure: the briefing gives the project's decisions and facts, and the prompt's pointer must be new to the session.
    const { memory } = await daemon.clients.memory.save({ content: "To rebuild the ledger_snapshots table run make ledger-snapshots.", kind: MemoryKind.PROCEDURE, cwd: workspace });
    const post = (route: string, body: object) => rawRequest({ socketPath: daemon.socketPath, path: route, body: JSON.stringify(body) });
    const start = await post("/hooks/claude-code/SessionStart", { session_id: "hook-cc", cwd: workspace, hook_event_name: "SessionStart", source: "startup" });
    expect(start.status).toBe(200);
    const asked = await post("/hooks/claude-code/UserPromptSubmit", { session_id: "hook-cc", cwd: workspace, hook_event_name: "UserPromptSubmit", prompt: "How do I rebuild the ledger_snapshots table?" });
    const context = (JSON.parse(asked.body) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    const [pointers, briefing] = await list("hook-cc");
    expect(briefing).toMatchObject({ kind: InjectionKind.BRIEFING, agent: "claude-code", via: "SessionStart" });
    expect(pointers).toMatchObject({ kind: InjectionKind.POINTERS, agent: "claude-code", via: "UserPromptSubmit", text: context, tokens: o200kTokens(context) });
    expect(pointers?.memories.map((m) => m.memoryId)).toEqual([memory?.id]);
    const opencode = await forwardHookEvent({
      socketPath: daemon.socketPath,
      route: "/hooks/opencode/chat.message",
      payload: JSON.stringify({
        directory: workspace,
        input: { sessionID: "ses_oc", agent: "build", messageID: "msg_1" },
        output: { message: { id: "msg_1", role: "user", sessionID: "ses_oc" }, parts: [{ id: "prt_1", type: "text", text: "How are refresh_tokens rows stored in Postgres?", messageID: "msg_1", sessionID: "ses_oc" }] },
      }),
      signal: AbortSignal.timeout(10_000),
      remainingMs: () => 10_000,
    });
    const parts = (JSON.parse(opencode) as { parts: { text: string }[] }).parts;
    expect(await list("ses_oc")).toEqual([expect.objectContaining({ agent: "opencode", via: "chat.message", text: parts[0]?.text, memories: [expect.objectContaining({ memoryId: refresh })] })]);
  });

  it("marks an archived memory's history with how often it had been injected before, and where last", async () => {
    const { memory } = await daemon.clients.memory.save({ content: "The webhook signing secret rotates every 90 days via make rotate-webhook-secret.", kind: MemoryKind.PROCEDURE, cwd: workspace });
    const id = memory?.id ?? "";
    for (const session of ["hist-1", "hist-2"]) {
      const res = await daemon.clients.memory.suggest({ query: "Rotate the webhook signing secret with make rotate-webhook-secret", cwd: workspace, sessionId: session, sourceAgent: "copilot", via: "userPromptSubmitted" });
      expect(res.pointers.map((p) => p.id)).toEqual([id]);
    }
    await daemon.clients.memory.archive({ id, reason: "moved to the secrets manager" });
    const history = await daemon.clients.memory.history({ id });
    const archived = history.events.find((e) => e.action === "archived");
    expect(archived?.injectedBefore).toMatchObject({ memoryId: id, count: 2, lastSessionId: "hist-2", lastAgent: "copilot" });
    expect(history.events.find((e) => e.action === "created")?.injectedBefore).toBeUndefined();
    expect(history.injections).toEqual([expect.objectContaining({ memoryId: id, count: 2, lastSessionId: "hist-2" })]);
    const printed = await runCli(home, ["history", id]);
    expect(printed.stdout).toMatch(new RegExp(`archived +${id}  moved to the secrets manager\\n    before this, injected 2 times, last in session hist-2 \\(copilot\\) at \\d{4}-`));
  });

  it("lists with memctl injections, by session and since a time, with totals per day and agent, or as JSON", async () => {
    await daemon.clients.memory.suggest({ query: "Add a cleanup migration for expired rows in refresh_tokens", cwd: workspace, sessionId: "cli-1", sourceAgent: "codex", via: "UserPromptSubmit" });
    const text = await runCli(home, ["injections", "--session", "cli-1", "--since", "1h"]);
    expect(text.code).toBe(0);
    const [head, line] = text.stdout.split("\n");
    expect(head).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}codex {2}cli-1 {2}UserPromptSubmit {2}pointers {2}"Add a cleanup migration for expired rows in refresh_tokens" {2}1 memory, \d+ tokens$/);
    expect(line).toContain(`${refresh} (decision) score `);
    expect(text.stdout).toMatch(/per UTC day and agent:\nday +agent +injections +tokens +briefings +prompts +nothing injected +recalls\n\d{4}-\d\d-\d\d +codex +1 +\d+ +0 +1 +0 +0/);
    const json = JSON.parse((await runCli(home, ["injections", "--session", "cli-1", "--json"])).stdout) as { injections: { via: string; kind: string; tokens: number }[]; totals: { prompts: number }[] };
    expect(json.injections).toEqual([expect.objectContaining({ via: "UserPromptSubmit", kind: "INJECTION_KIND_POINTERS", tokens: expect.any(Number) })]);
    expect(json.totals).toEqual([expect.objectContaining({ prompts: 1 })]);
    const wrong = await runCli(home, ["injections", "--since", "yesterday"]);
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining("an age such as 90m, 12h, 7d or 2w")]);
  });

  it("pages newest first, and lists sessions by their last record", async () => {
    for (const query of ["first prompt about refresh_tokens rows", "second prompt about refresh_tokens rows", "third prompt about refresh_tokens rows"]) {
      await daemon.clients.memory.suggest({ query, cwd: workspace, sessionId: "page-1" });
    }
    const first = await daemon.clients.injections.listInjections({ sessionId: "page-1", pageSize: 2 });
    const second = await daemon.clients.injections.listInjections({ sessionId: "page-1", pageSize: 2, pageToken: first.nextPageToken });
    expect([...first.injections, ...second.injections].map((i) => i.prompt)).toEqual(["third prompt about refresh_tokens rows", "second prompt about refresh_tokens rows", "first prompt about refresh_tokens rows"]);
    expect(second.nextPageToken).toBe("");
    const { sessions } = await daemon.clients.injections.listInjectionSessions({});
    expect(sessions[0]).toMatchObject({ sessionId: "page-1", agent: "", prompts: 3 });
    const later = await daemon.clients.injections.listInjections({ since: timestampFromMs(Date.now() + 60_000) });
    expect(later.injections).toEqual([]);
  });

  it("refuses a secret in via or source_agent, a page token it did not issue and a page size out of range", async () => {
    expect(await refusalCode(daemon.clients.memory.suggest({ query: "refresh_tokens cleanup migration rows", cwd: workspace, via: GITHUB_TOKEN }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(daemon.clients.memory.recall({ query: "argo", cwd: workspace, sourceAgent: GITHUB_TOKEN }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(daemon.clients.injections.listInjections({ pageToken: "not-a-token" }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(daemon.clients.injections.listInjections({ pageSize: 1001 }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(daemon.clients.injections.listInjectionSessions({ pageSize: -1 }))).toBe(Code.InvalidArgument);
  });
});

describe("the injection record across a restart", () => {
  it("holds every answer given before the daemon stopped", async () => {
    const home = makeHome();
    try {
      let daemon = await spawnDaemon({ home });
      await daemon.clients.memory.save({ content: "The staging database listens on port 5433.", kind: MemoryKind.FACT, project: "ops" });
      await daemon.clients.memory.suggest({ query: "which port does the staging database listen on", project: "ops", sessionId: "last-words" });
      expect(await daemon.stop()).toBe(0);
      daemon = await spawnDaemon({ home });
      const { injections } = await daemon.clients.injections.listInjections({ sessionId: "last-words" });
      expect(injections.map((i) => [i.memories.length, i.tokens > 0])).toEqual([[1, true]]);
      await daemon.stop();
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
