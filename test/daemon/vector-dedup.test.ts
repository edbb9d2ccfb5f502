import fs from "node:fs";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryKind, MemoryStatus, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { startFakeOllama } from "../embed/fake-ollama.js";
import { makeHome, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// The fake Ollama server's vectors come from the characters of the text at their positions, so a
// text with a word added at the end is nearly identical in meaning (cosine well above 0.92) and an
// unrelated text is not: the tests control similarity without a real model.
async function daemonWithFakeOllama(): Promise<TestDaemon> {
  const ollama = await startFakeOllama();
  const home = makeHome();
  const d = await spawnDaemon({ home, env: { MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url } });
  cleanups.push(() => ollama.close());
  cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
  cleanups.push(async () => {
    if (d.process.exitCode === null) await d.kill();
  });
  return d;
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
      sessionId: "session-b",
      waitForVector: true,
    });
    const firstId = first.memory?.id as string;
    expect(repeat.mergedInto).toBe(firstId);
    expect(repeat.memory?.id).toBe(firstId);
    expect(repeat.memory?.tags).toEqual(["ops"]);
    expect(repeat.memory?.concepts).toEqual(["approvals"]);

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
    const active = await d.clients.memory.list({ project: "acme", statuses: [MemoryStatus.ACTIVE] });
    expect(active.memories.map((m) => m.id)).toEqual(expect.arrayContaining(["01JZ0000000000000000000001", "01JZ0000000000000000000002"]));
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
