import fs from "node:fs";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryKind, MemoryStatus, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { ReindexTarget } from "../../gen/memd/v1/admin_service_pb.js";
import { startFakeOllama } from "../embed/fake-ollama.js";
import type { LocalServer } from "../embed/local-http-server.js";
import { makeHome, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// The fake Ollama server's vectors come from the characters of the text at their positions, so a
// text with a word added at the end is nearly identical in meaning (cosine well above 0.92) and an
// unrelated text is not: the tests control similarity without a real model.
async function daemonWithFakeOllama(): Promise<TestDaemon> {
  return (await daemonAndOllama()).daemon;
}

async function daemonAndOllama(): Promise<{ daemon: TestDaemon; ollama: LocalServer }> {
  const ollama = await startFakeOllama();
  const home = makeHome();
  const d = await spawnDaemon({ home, env: { MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url } });
  cleanups.push(() => ollama.close());
  cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
  cleanups.push(async () => {
    if (d.process.exitCode === null) await d.kill();
  });
  return { daemon: d, ollama };
}

const DEPLOY = "Production deploys go through the staging cluster first and need two approvals from the platform team";

describe("dedup on write by meaning (against a local server speaking the Ollama API)", () => {
  it("merges a near-duplicate of the same project and kind into the older memory and says so", async () => {
    const d = await daemonWithFakeOllama();
    const first = await d.clients.memory.save({ content: DEPLOY, project: "acme", kind: MemoryKind.DECISION, tags: ["ops"], waitForVector: true });
    expect(first.vectorReady).toBe(true);
    const repeat = await d.clients.memory.save({
      content: `${DEPLOY} always`,
      project: "acme",
      kind: MemoryKind.DECISION,
      concepts: ["approvals"],
      pinned: true,
      sessionId: "session-b",
      waitForVector: true,
    });
    const firstId = first.memory?.id as string;
    expect(repeat.mergedInto).toBe(firstId);
    expect(repeat.memory?.id).toBe(firstId);
    expect(repeat.memory?.tags).toEqual(["ops"]);
    expect(repeat.memory?.concepts).toEqual(["approvals"]);
    // What the repeat asked for survives the merge.
    expect(repeat.memory?.pinned).toBe(true);

    const history = await d.clients.memory.history({ id: firstId });
    expect(history.events.filter((e) => e.action === "reinforced")).toHaveLength(1);
    const listed = await d.clients.memory.list({ project: "acme", statuses: [MemoryStatus.ARCHIVED] });
    expect(listed.memories).toHaveLength(1);
    expect(listed.memories[0]?.supersededBy).toBe(firstId);
    expect(listed.memories[0]?.archiveReason).toBe("duplicate");
  });

  it("keeps near-identical memories of different kinds or projects apart, and unrelated ones too", async () => {
    const d = await daemonWithFakeOllama();
    await d.clients.memory.save({ content: DEPLOY, project: "acme", kind: MemoryKind.DECISION, waitForVector: true });
    const otherKind = await d.clients.memory.save({ content: `${DEPLOY} always`, project: "acme", kind: MemoryKind.FACT, waitForVector: true });
    const otherProject = await d.clients.memory.save({ content: `${DEPLOY} always`, project: "billing", kind: MemoryKind.DECISION, waitForVector: true });
    const unrelated = await d.clients.memory.save({ content: "The webhook worker retries three times with jitter", project: "acme", kind: MemoryKind.DECISION, waitForVector: true });
    for (const res of [otherKind, otherProject, unrelated]) {
      expect(res.vectorReady).toBe(true);
      expect(res.mergedInto).toBe("");
    }
    const active = await d.clients.memory.list({ statuses: [MemoryStatus.ACTIVE] });
    expect(active.memories).toHaveLength(4);
  });

  it("restores imported memories as they were, even when they are near-duplicates", async () => {
    const d = await daemonWithFakeOllama();
    const base = { project: "acme", kind: MemoryKind.DECISION, importance: 3, createTime: timestampFromMs(Date.UTC(2026, 9, 1)) };
    await d.clients.admin.import({
      memories: [
        { ...base, id: "01JZ0000000000000000000001", content: DEPLOY },
        { ...base, id: "01JZ0000000000000000000002", content: `${DEPLOY} always` },
      ],
    });
    // A save after the import waits for its own vector, and the queue is drained oldest first.
    await d.clients.memory.save({ content: "The webhook worker retries three times with jitter", project: "acme", waitForVector: true });
    const imported = ["01JZ0000000000000000000001", "01JZ0000000000000000000002"];
    const activeIds = async () => (await d.clients.memory.list({ project: "acme", statuses: [MemoryStatus.ACTIVE] })).memories.map((m) => m.id);
    expect(await activeIds()).toEqual(expect.arrayContaining(imported));

    // Re-embedding everything is not a new write either.
    for await (const progress of d.clients.admin.reindex({ target: ReindexTarget.VECTORS })) void progress;
    expect(await activeIds()).toEqual(expect.arrayContaining(imported));
  });

  it("does not embed a memory again when only its tags, status or pin change", async () => {
    const { daemon: d, ollama } = await daemonAndOllama();
    const saved = await d.clients.memory.save({ content: DEPLOY, project: "acme", waitForVector: true });
    // Texts sent to be embedded as documents (queries are not).
    const embedded = () =>
      ollama.requests
        .filter((r) => r.path === "/api/embed")
        .flatMap((r) => (r.body as { input: string[] }).input)
        .filter((text) => text.startsWith("search_document: "));
    const before = embedded().length;
    await d.clients.memory.update({ id: saved.memory?.id ?? "", tags: { values: ["ops"] }, pinned: true });
    await d.clients.memory.update({ id: saved.memory?.id ?? "", content: `${DEPLOY}, and a change ticket` });
    for (let i = 0; i < 200 && Number((await d.clients.admin.stats({})).embedder?.queueDepth ?? 1) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(embedded().slice(before)).toEqual([expect.stringContaining("and a change ticket")]);
  });

  it("does not take a memory naming other numbers as corroboration of a staged guess", async () => {
    const d = await daemonWithFakeOllama();
    const retries = (n: number) => `The payment webhook worker retries failed deliveries ${n} times before it parks them`;
    const guess = await d.clients.memory.save({ content: retries(3), project: "acme", provenance: Provenance.DISTILLED, sessionId: "session-a", waitForVector: true });
    await d.clients.memory.save({ content: retries(5), project: "acme", kind: MemoryKind.DECISION, sessionId: "session-b", waitForVector: true });
    expect((await d.clients.memory.get({ id: guess.memory?.id ?? "" })).memory?.status).toBe(MemoryStatus.STAGED);
  });

  it("promotes a staged guess when another session writes something nearly identical, but not the same session", async () => {
    const d = await daemonWithFakeOllama();
    const guess = await d.clients.memory.save({
      content: DEPLOY,
      project: "acme",
      kind: MemoryKind.FACT,
      provenance: Provenance.DISTILLED,
      sessionId: "session-a",
      waitForVector: true,
    });
    const guessId = guess.memory?.id as string;
    expect(guess.memory?.status).toBe(MemoryStatus.STAGED);

    // Another kind, so it is kept as its own memory: it only counts as an observation.
    const sameSession = await d.clients.memory.save({
      content: `${DEPLOY} always`,
      project: "acme",
      kind: MemoryKind.DECISION,
      provenance: Provenance.DISTILLED,
      sessionId: "session-a",
      waitForVector: true,
    });
    expect(sameSession.mergedInto).toBe("");
    expect((await d.clients.memory.get({ id: guessId })).memory?.status).toBe(MemoryStatus.STAGED);

    // Same kind as the second guess, so it merges into it; it is evidence for both guesses.
    const otherSession = await d.clients.memory.save({
      content: `${DEPLOY} today`,
      project: "acme",
      kind: MemoryKind.DECISION,
      sessionId: "session-b",
      waitForVector: true,
    });
    expect(otherSession.mergedInto).toBe(sameSession.memory?.id);
    for (const id of [guessId, sameSession.memory?.id as string]) {
      expect((await d.clients.memory.get({ id })).memory?.status).toBe(MemoryStatus.ACTIVE);
      const history = await d.clients.memory.history({ id });
      expect(history.events.filter((e) => e.action === "reinforced").map((e) => e.sessionId)).toEqual(["session-b"]);
    }
  });
});
