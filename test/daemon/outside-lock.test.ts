import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import { startFakeOllama } from "../embed/fake-ollama.js";
import type { LocalServer } from "../embed/local-http-server.js";
import { spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { refusal } from "../helpers/refusal.js";

/**
 * Another process (this test process, as the sqlite3 shell would) holds the database's write
 * lock in BEGIN IMMEDIATE while the real daemon serves calls on its socket.
 */
describe("a write lock held by another process", () => {
  let daemon: TestDaemon;
  let outside: Database.Database;

  beforeAll(async () => {
    daemon = await spawnDaemon();
    outside = new Database(path.join(daemon.home, "memd.db"));
  });
  afterAll(async () => {
    if (outside?.inTransaction) outside.exec("ROLLBACK");
    outside?.close();
    await daemon?.stop();
  });

  it("keeps Health and reads answering at once, makes writes wait without blocking, and refuses a write whose deadline passes as unavailable", async () => {
    const { memory, admin } = daemon.clients;
    const kept = (await memory.save({ content: "the staging database runs PostgreSQL 15", project: "locked" })).memory;
    outside.exec("BEGIN IMMEDIATE");

    let waitingSaveDone = false;
    const waitingSave = memory.save({ content: "saved while another process held the lock", project: "locked" }).finally(() => {
      waitingSaveDone = true;
    });
    // Every read answers while that Save is still waiting for the lock: nothing blocks the event loop.
    for (let i = 0; i < 20; i += 1) expect((await admin.health({})).health?.pid).toBe(daemon.process.pid);
    expect((await memory.get({ id: kept?.id as string })).memory?.content).toBe("the staging database runs PostgreSQL 15");
    expect((await memory.list({ project: "locked" })).memories).toHaveLength(1);
    expect((await memory.search({ query: "staging database", project: "locked" })).results).toHaveLength(1);
    // A recall at depth 2 counts accesses, which it skips rather than wait for the lock.
    expect((await memory.recall({ query: "staging database", project: "locked", depth: 2 })).memories).toHaveLength(1);
    const suggested = await memory.suggest({ query: "which PostgreSQL does the staging database run", project: "locked", sessionId: "s1" });
    expect(suggested.pointers.map((p) => p.id)).toEqual([kept?.id]);
    expect(waitingSaveDone).toBe(false);

    // The caller's deadline goes in its header alone: a client-side timer of the same 400 ms would
    // race the daemon's answer on a loaded machine and end the call as deadline_exceeded first.
    const refused = await refusal(memory.save({ content: "a write whose caller cannot wait", project: "locked" }, { headers: { "connect-timeout-ms": "400" } }));
    expect(refused.code).toBe(Code.Unavailable);
    expect(refused.rawMessage).toMatch(/locked by another process.*nothing of this call was stored/);

    outside.exec("COMMIT");
    const saved = (await waitingSave).memory;
    expect(saved?.content).toBe("saved while another process held the lock");
    const contents = (await memory.list({ project: "locked" })).memories.map((m) => m.content).sort();
    expect(contents).toEqual(["saved while another process held the lock", "the staging database runs PostgreSQL 15"]);
    expect(daemon.process.exitCode).toBeNull();
  });
});

describe("a write lock taken while a batch is being embedded (against a local server speaking the Ollama API)", () => {
  let ollama: LocalServer;
  let daemon: TestDaemon;
  let outside: Database.Database;
  let releaseEmbed: () => void = () => undefined;
  const embedHeld = new Promise<void>((resolve) => {
    releaseEmbed = resolve;
  });

  beforeAll(async () => {
    ollama = await startFakeOllama({ holdWhen: (texts) => (texts.some((text) => text.includes("embedded while locked")) ? embedHeld : undefined) });
    daemon = await spawnDaemon({ env: { MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url } });
    outside = new Database(path.join(daemon.home, "memd.db"));
  });
  afterAll(async () => {
    if (outside?.inTransaction) outside.exec("ROLLBACK");
    outside?.close();
    releaseEmbed();
    await daemon?.stop();
    await ollama?.close();
  });

  it("keeps the batch queued while the vectors cannot be stored, and stores them once the lock is gone", async () => {
    const { memory } = daemon.clients;
    const held = (await memory.save({ content: "a memory embedded while locked by a backup tool", project: "locked" })).memory;
    await expect.poll(() => ollama.requests.some((r) => JSON.stringify(r.body ?? "").includes("embedded while locked"))).toBe(true);
    outside.exec("BEGIN IMMEDIATE");
    releaseEmbed();
    // The vectors arrive and find the database locked; the pipeline pauses instead of stopping.
    await expect.poll(() => fs.readFileSync(path.join(daemon.home, "logs/memd.log"), "utf8")).toMatch(/embedding paused: the database is locked by another process/);
    outside.exec("COMMIT");
    const later = await memory.save({ content: "a memory saved after the lock was gone", project: "locked", waitForVector: true }, { timeoutMs: 20_000 });
    expect(later.vectorReady).toBe(true);
    const found = await memory.search({ query: "a memory embedded while locked by a backup tool", project: "locked", mode: SearchMode.VECTOR, limit: 1 });
    expect(found.results.map((r) => r.memory?.id)).toEqual([held?.id]);
  });
});
