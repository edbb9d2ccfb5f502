import fs from "node:fs";
import path from "node:path";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { BriefZone, SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import { makeHome, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { provenMemory } from "../helpers/proven-memory.js";
import { fakeClock, type InProcessDaemon, startInProcessDaemon } from "../helpers/in-process-daemon.js";
import { refusalCode } from "../helpers/refusal.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const LEDGER_PROMPT = "Why is the ledger_entries reconcile job so slow?";

describe("Suggest", () => {
  let home: string;
  let daemon: TestDaemon;
  let workspace: string;
  const ids: Record<string, string> = {};
  const ledgerIds: string[] = [];

  beforeAll(async () => {
    home = makeHome();
    daemon = await spawnDaemon({ home });
    workspace = fs.mkdtempSync(path.join(home, "billing-"));
    const save = async (content: string, kind: MemoryKind) => (await daemon.clients.memory.save({ content, kind, cwd: workspace })).memory?.id ?? "";
    ids.refresh = await save("Refresh tokens are stored hashed in Postgres (table refresh_tokens), not in Redis.", MemoryKind.DECISION);
    ids.sidebar = await save("The sidebar uses CSS modules; class names are camelCase.", MemoryKind.FACT);
    // Five equally good answers (the same words, the same length), so that only the limit decides how many are given.
    for (const content of [
      "ledger_entries reconcile: the job runs nightly.",
      "ledger_entries reconcile: the job skips closed.",
      "ledger_entries reconcile: the job locks accounts.",
      "ledger_entries reconcile: the job writes reports.",
      "ledger_entries reconcile: the job retries twice.",
    ]) {
      ledgerIds.push(await save(content, MemoryKind.FACT));
    }
  });
  afterAll(async () => {
    await daemon.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const suggest = (query: string, extra: { sessionId?: string; limit?: number; maxTokens?: number } = {}) =>
    daemon.clients.memory.suggest({ query, cwd: workspace, ...extra });

  it("points to a memory that shares an identifier with the prompt, saying why", async () => {
    const res = await suggest("Add a cleanup migration for expired rows in refresh_tokens");
    expect(res.pointers.map((p) => p.id)).toEqual([ids.refresh]);
    expect(res.pointers[0]).toMatchObject({ kind: MemoryKind.DECISION, line: "Refresh tokens are stored hashed in Postgres (table refresh_tokens), not in Redis." });
    expect(res.pointers[0]?.why).toContain("refresh_tokens");
    expect(res.text).toBe(
      "memd has memories that bear on this prompt (full text: the memory_search tool with ids, or memctl recall --depth 2 --ids ID,...):\n" +
        `- ${ids.refresh} (decision): Refresh tokens are stored hashed in Postgres (table refresh_tokens), not in Redis.`,
    );
    expect(res.project).toBe(path.basename(workspace));
  });

  it("says nothing for a vague prompt that explicit search still matches", async () => {
    const vague = "Tokens everywhere: can you explain the general design of this service?";
    const search = await daemon.clients.memory.search({ query: vague, cwd: workspace, mode: SearchMode.HYBRID });
    expect(search.results.map((r) => r.memory?.id)).toContain(ids.refresh);
    expect(await suggest(vague)).toMatchObject({ pointers: [], text: "" });
    expect(await suggest("ok thanks, go ahead")).toMatchObject({ pointers: [], text: "", project: "" });
  });

  it("gives at most three pointers unless asked for another number", async () => {
    expect((await suggest(LEDGER_PROMPT)).pointers).toHaveLength(3);
    expect((await suggest(LEDGER_PROMPT, { limit: 1 })).pointers).toHaveLength(1);
    const five = await suggest(LEDGER_PROMPT, { limit: 5 });
    expect(five.pointers.map((p) => p.id).sort()).toEqual([...ledgerIds].sort());
  });

  it("never repeats a pointer within a session, across calls and across a daemon restart, while another session gets it again", async () => {
    const first = await suggest(LEDGER_PROMPT, { sessionId: "s-repeat" });
    const second = await suggest(LEDGER_PROMPT, { sessionId: "s-repeat" });
    expect(first.pointers).toHaveLength(3);
    expect(second.pointers).toHaveLength(2);
    expect([...first.pointers, ...second.pointers].map((p) => p.id).sort()).toEqual([...ledgerIds].sort());
    expect(await suggest(LEDGER_PROMPT, { sessionId: "s-repeat" })).toMatchObject({ pointers: [], text: "" });

    await daemon.stop();
    daemon = await spawnDaemon({ home });
    expect(await suggest(LEDGER_PROMPT, { sessionId: "s-repeat" })).toMatchObject({ pointers: [], text: "" });
    const other = await suggest(LEDGER_PROMPT, { sessionId: "s-other" });
    expect(other.pointers.map((p) => p.id)).toEqual(first.pointers.map((p) => p.id));
  });

  it("answers an empty prompt with nothing and cuts a 100 KiB prompt instead of refusing it", async () => {
    expect(await suggest("")).toMatchObject({ pointers: [], text: "" });
    const huge = `Add a cleanup migration for expired rows in refresh_tokens. ${"x".repeat(100 * 1024)}`;
    expect((await suggest(huge)).pointers.map((p) => p.id)).toEqual([ids.refresh]);
  });

  it("serves memctl suggest, which prints the pointers for a prompt and nothing for chit-chat", async () => {
    const run = await runCli(home, ["suggest", "Add a cleanup migration for expired rows in refresh_tokens"], { cwd: workspace });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`- ${ids.refresh} (decision): Refresh tokens are stored hashed in Postgres`);
    expect(await runCli(home, ["suggest", "ok", "thanks"], { cwd: workspace })).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("refuses negative or out-of-range counts and an overlong session id as invalid arguments", async () => {
    expect(await refusalCode(suggest(LEDGER_PROMPT, { limit: -1 }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(suggest(LEDGER_PROMPT, { limit: 11 }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(suggest(LEDGER_PROMPT, { maxTokens: -5 }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(suggest(LEDGER_PROMPT, { sessionId: "s".repeat(300) }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(daemon.clients.memory.brief({ cwd: workspace, maxItems: -1 }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(daemon.clients.memory.brief({ cwd: workspace, maxChars: -1 }))).toBe(Code.InvalidArgument);
  });
});

describe("Brief", () => {
  const clock = fakeClock(Date.UTC(2026, 0, 5));
  let daemon: InProcessDaemon;
  let workspace: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    daemon = await startInProcessDaemon({ clock });
    workspace = fs.mkdtempSync(path.join(daemon.home, "acme-"));
    const save = async (content: string, kind: MemoryKind, project?: string, provenance?: Provenance) =>
      (await daemon.clients.memory.save({ content, kind, cwd: workspace, project, provenance })).memory?.id ?? "";
    // Rules come up for review 90 days after they were saved.
    ids.rule = await save("Every public endpoint has a rate limit.", MemoryKind.RULE);
    clock.set(clock.now() + 91 * DAY_MS);
    // Two preferences that do not contradict each other: a contradiction would take a zone of its own.
    for (const preference of ["The user prefers small pull requests.", "The user wants code review comments to be direct."]) await save(preference, MemoryKind.PREFERENCE, "global");
    ids.refresh = await save("Refresh tokens are stored hashed in Postgres (table refresh_tokens), not in Redis.", MemoryKind.DECISION);
    await save("The API listens on port 8080.", MemoryKind.FACT);
    for (let i = 0; i < 3; i++) await save(`Shipped release ${i} after fixing the flaky login test.`, MemoryKind.EPISODE);
    // A skill proposal needs a memory proven across time: one a person stated ten days ago and read back since.
    const procedure = provenMemory({ content: "Run make migrate-up before the integration tests, then seed with make seed.", kind: MemoryKind.PROCEDURE, project: path.basename(workspace) }, clock.now());
    await daemon.clients.admin.import({ memories: [procedure] });
    ids.procedure = procedure.id;
  });
  afterAll(async () => {
    await daemon.close();
  });

  const memoryIds = (items: readonly { zone: BriefZone; memoryId: string }[]) =>
    items.filter((item) => item.zone !== BriefZone.SKILL_PROPOSAL).map((item) => item.memoryId);

  it("briefs at most eight short items across every zone, one line each in the text", async () => {
    const res = await daemon.clients.memory.brief({ cwd: workspace });
    expect(res.project).toBe(path.basename(workspace));
    expect(res.items).toHaveLength(8);
    expect(new Set(res.items.map((item) => item.zone))).toEqual(
      new Set([BriefZone.PREFERENCE, BriefZone.PROJECT, BriefZone.EPISODE, BriefZone.REVIEW_DUE, BriefZone.SKILL_PROPOSAL]),
    );
    expect(res.items.find((item) => item.zone === BriefZone.REVIEW_DUE)?.memoryId).toBe(ids.rule);
    expect(res.items.find((item) => item.zone === BriefZone.SKILL_PROPOSAL)?.memoryId).toBe(ids.procedure);
    const bullets = res.text.split("\n").filter((line) => line.startsWith("- "));
    expect(bullets).toEqual(res.items.map((item) => `- ${item.line}`));
    expect(res.text).toContain("Long-term memory from memd for project");
  });

  it("gives a session nothing twice, until its context is cleared", async () => {
    const first = await daemon.clients.memory.brief({ cwd: workspace, sessionId: "b-1" });
    const second = await daemon.clients.memory.brief({ cwd: workspace, sessionId: "b-1" });
    expect(memoryIds(first.items).length).toBeGreaterThan(0);
    expect(memoryIds(second.items).filter((id) => memoryIds(first.items).includes(id))).toEqual([]);

    const cleared = await daemon.clients.memory.brief({ cwd: workspace, sessionId: "b-1", contextCleared: true });
    expect(cleared.items).toEqual(first.items);
  });

  it("keeps Suggest from pointing to a memory the session's briefing already gave", async () => {
    const brief = await daemon.clients.memory.brief({ cwd: workspace, sessionId: "b-2" });
    expect(memoryIds(brief.items)).toContain(ids.refresh);
    const prompt = "Add a cleanup migration for expired rows in refresh_tokens";
    expect((await daemon.clients.memory.suggest({ query: prompt, cwd: workspace, sessionId: "b-2" })).pointers).toEqual([]);
    const fresh = await daemon.clients.memory.suggest({ query: prompt, cwd: workspace, sessionId: "b-3" });
    expect(fresh.pointers.map((p) => p.id)).toEqual([ids.refresh]);
  });

  it("forgets what a session was given once it has been idle for over a week", async () => {
    const prompt = "Add a cleanup migration for expired rows in refresh_tokens";
    const suggest = (sessionId: string) => daemon.clients.memory.suggest({ query: prompt, cwd: workspace, sessionId });
    expect((await suggest("idle")).pointers).toHaveLength(1);
    expect((await suggest("idle")).pointers).toHaveLength(0);
    clock.set(clock.now() + 8 * DAY_MS);
    // Pruning happens whenever something is recorded, here for another session.
    expect((await suggest("busy")).pointers).toHaveLength(1);
    expect((await suggest("idle")).pointers).toHaveLength(1);
  });

  it("honours a smaller item cap and a character budget", async () => {
    const three = await daemon.clients.memory.brief({ cwd: workspace, maxItems: 3 });
    expect(three.items).toHaveLength(3);
    const tight = await daemon.clients.memory.brief({ cwd: workspace, maxChars: 300 });
    expect(tight.text.length).toBeLessThanOrEqual(300);
    expect(tight.items.length).toBeGreaterThan(0);
    expect(await refusalCode(daemon.clients.memory.brief({ cwd: workspace, maxItems: 21 }))).toBe(Code.InvalidArgument);
  });
});

describe("Brief with many memories in a zone", () => {
  it("still briefs a pinned preference that two dozen newer ones have pushed down", async () => {
    const daemon = await startInProcessDaemon({ clock: fakeClock(Date.UTC(2026, 0, 5)) });
    try {
      const pinned = await daemon.clients.memory.save({ content: "Never force-push to main.", kind: MemoryKind.PREFERENCE, project: "global", pinned: true });
      for (let i = 0; i < 25; i++) {
        await daemon.clients.memory.save({ content: `The user likes naming style ${i}.`, kind: MemoryKind.PREFERENCE, project: "global" });
      }
      const res = await daemon.clients.memory.brief({ project: "global" });
      expect(res.items.map((item) => item.memoryId)).toContain(pinned.memory?.id);
    } finally {
      await daemon.close();
    }
  });
});
