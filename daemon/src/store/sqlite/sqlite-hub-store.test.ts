import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MemoryRecord } from "../../memory/memory.js";
import { buildMemory } from "../../memory/new-memory.js";
import type { SqliteStore } from "./sqlite-store.js";
import { openStore } from "../open-store.js";

let dir: string;
let store: SqliteStore;
const now = () => Date.UTC(2026, 11, 1);
let n = 0;
const HUB = "postgres://ada:one@hub.example/memd";

function memory(content: string, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  n += 1;
  return { ...buildMemory({ content, project: "api" }, `01JHUB${String(n).padStart(20, "0")}`, now(), { maxContentBytes: 65536 }), ...extra };
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-hub-store-"));
  store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now });
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const event = (memoryId: string) => ({ at: now(), action: "updated" as const, sessionId: "", detail: "before" , memoryId });

describe("the hub's outbox in the local database", () => {
  it("queues nothing while no hub is connected, then every memory and event when one is", () => {
    const m = store.insert(memory("saved before the hub"), { at: now(), action: "created", sessionId: "", detail: "" });
    expect(m).toBeGreaterThan(0);
    expect(store.hub.pending()).toEqual({ memories: 0, events: 0 });
    expect(store.hub.configure(HUB)).toBe(1);
    expect(store.hub.pending()).toEqual({ memories: 1, events: 1 });
    expect(store.hub.link()).toMatchObject({ url: HUB, memoryCursor: { txid: "0", seq: 0 }, generation: 0 });
  });

  it("queues a change in the change's own transaction, and not a read", () => {
    store.hub.configure(HUB);
    const saved = memory("the cache key includes the tenant");
    store.insert(saved);
    const [due] = store.hub.duePushes(10);
    expect(due).toMatchObject({ memoryId: saved.id, baseSeq: 0, record: { content: "the cache key includes the tenant" } });
    store.hub.settlePushes([{ memoryId: saved.id, token: due?.token as number, seq: 7 }]);
    expect(store.hub.hasPending()).toBe(false);
    store.recordAccess([saved.id], now() + 1);
    expect(store.hub.hasPending()).toBe(false);
    store.modify(saved.id, (m) => ({ ...m, content: "the cache key includes the tenant and region", updatedAt: now() + 2 }), () => event(saved.id));
    expect(store.hub.duePushes(10)).toMatchObject([{ memoryId: saved.id, baseSeq: 7 }]);
    expect(store.hub.dueEvents(10)).toHaveLength(1);
    expect(store.hub.dueEvents(10)[0]?.key).toBe(`${store.hub.machineId()}:${store.hub.dueEvents(10)[0]?.eventId}`);
  });

  it("keeps a job queued when the memory changed again while its push was under way", () => {
    store.hub.configure(HUB);
    const saved = memory("first version");
    store.insert(saved);
    const [due] = store.hub.duePushes(10);
    store.modify(saved.id, (m) => ({ ...m, content: "second version", updatedAt: now() + 1 }));
    store.hub.settlePushes([{ memoryId: saved.id, token: due?.token as number, seq: 3 }]);
    expect(store.hub.duePushes(10)).toMatchObject([{ memoryId: saved.id, baseSeq: 3, record: { content: "second version" } }]);
  });

  it("stores what it pulls without queueing it back, skips what it already has and what waits to be pushed, and keeps its own reads", () => {
    store.hub.configure(HUB);
    const local = memory("a local change not pushed yet");
    store.insert(local);
    const remote = memory("from another machine");
    const cursor = { txid: "900", seq: 12 };
    expect(store.hub.applyMemories([{ record: remote, seq: 10 }, { record: { ...local, content: "their version" }, seq: 11 }], cursor)).toBe(1);
    expect(store.get(remote.id)?.content).toBe("from another machine");
    expect(store.get(local.id)?.content).toBe("a local change not pushed yet");
    expect(store.hub.duePushes(10).map((d) => d.memoryId)).toEqual([local.id]);
    expect(store.hub.link()?.memoryCursor).toEqual(cursor);
    store.recordAccess([remote.id], now() + 5);
    store.recordAccess([remote.id], now() + 6);
    expect(store.hub.applyMemories([{ record: remote, seq: 10 }], { txid: "901", seq: 13 })).toBe(0);
    const newer = { ...remote, content: "from another machine, edited", updatedAt: now() + 9, accessCount: 0 };
    expect(store.hub.applyMemories([{ record: newer, seq: 14 }], { txid: "902", seq: 14 })).toBe(1);
    expect(store.get(remote.id)).toMatchObject({ content: "from another machine, edited", accessCount: 2, lastAccessedAt: now() + 6 });
    expect(store.hub.duePushes(10).map((d) => d.memoryId)).toEqual([local.id]);
  });

  it("stores each event from elsewhere once, by its owner and key: another person's event under the same key is another event", () => {
    store.hub.configure(HUB);
    const remote = memory("from another machine");
    store.hub.applyMemories([{ record: remote, seq: 1 }], { txid: "1", seq: 1 });
    const pulled = [{ key: "othermachine:5", owner: "ada", event: event(remote.id) }, { key: "othermachine:5", owner: "bo", event: { ...event(remote.id), detail: "bo's" } }];
    expect(store.hub.applyEvents(pulled, { txid: "1", seq: 2 })).toBe(2);
    expect(store.hub.applyEvents(pulled, { txid: "1", seq: 3 })).toBe(0);
    expect(store.events([remote.id])).toHaveLength(2);
    expect(store.hub.pending().events).toBe(0);
  });

  it("does not store twice an event pulled before events were told apart by owner", () => {
    store.hub.configure(HUB);
    const remote = memory("from another machine");
    store.hub.applyMemories([{ record: remote, seq: 1 }], { txid: "1", seq: 1 });
    const raw = new Database(path.join(dir, "memd.db"));
    raw.prepare("INSERT INTO memory_events (memory_id, at, action, session_id, detail, origin) VALUES (?, ?, 'updated', '', 'before', 'othermachine:5')").run(remote.id, now());
    raw.close();
    expect(store.hub.applyEvents([{ key: "othermachine:5", owner: "ada", event: event(remote.id) }], { txid: "1", seq: 2 })).toBe(0);
    expect(store.events([remote.id])).toHaveLength(1);
  });

  it("drops a purged memory's queued events with them, so nothing waits to be pushed that cannot be", () => {
    store.hub.configure(HUB);
    const old = memory("archived long ago", { status: "archived", archiveReason: "stale" });
    store.insert(old, { at: now(), action: "created", sessionId: "", detail: "" });
    expect(store.hub.pending().events).toBe(1);
    store.purgeArchived(path.join(dir, "before-purge.db"));
    expect(store.hub.pending().events).toBe(0);
    expect(store.hub.dueEvents(10)).toEqual([]);
  });

  it("queues only the person's own memories for a new hub: another person's would be recorded there as theirs", () => {
    store.insert(memory("mine"));
    store.hub.configure(HUB);
    const theirs = memory("bo's, shared with ada's team");
    store.hub.applyMemories([{ record: { ...theirs, author: "bo", viaTeam: "core" }, seq: 4 }], { txid: "1", seq: 4 });
    expect(store.hub.configure("postgres://ada:one@other.example/memd")).toBe(1);
    expect(store.hub.duePushes(10).map((d) => d.record?.content)).toEqual(["mine"]);
  });

  it("learns who wrote a version it already has when the stream is read again, without queueing it", () => {
    store.hub.configure(HUB);
    const pulled = memory("pulled before authors were recorded");
    store.hub.applyMemories([{ record: pulled, seq: 3 }], { txid: "1", seq: 3 });
    expect(store.hub.applyMemories([{ record: { ...pulled, author: "bo", viaTeam: "core" }, seq: 3 }], { txid: "1", seq: 4 })).toBe(0);
    expect(store.get(pulled.id)).toMatchObject({ author: "bo", viaTeam: "core" });
    expect(store.hub.hasPending()).toBe(false);
  });

  it("refills a hub that lost rows: forgets what it held, queues every memory and event of the person's again, reads from the start, and keeps the notice", () => {
    store.hub.configure(HUB);
    const saved = memory("pushed once");
    store.insert(saved, { at: now(), action: "created", sessionId: "", detail: "" });
    const [due] = store.hub.duePushes(10);
    store.hub.settlePushes([{ memoryId: saved.id, token: due?.token as number, seq: 9 }]);
    store.hub.settleEvents(store.hub.dueEvents(10).map((e) => e.eventId));
    store.hub.adopt({ hubId: "hub-1", epoch: 1 });
    store.hub.applyMemories([], { txid: "50", seq: 60 });
    expect(store.hub.acknowledgedMemories("", 10)).toEqual([{ id: saved.id, seq: 9 }]);
    expect(store.hub.acknowledgedEvents(0, 10)).toHaveLength(1);
    expect(store.hub.refill({ hubId: "hub-1", epoch: 2 }, { text: "the hub lost rows", at: now() })).toBe(1);
    expect(store.hub.link()).toMatchObject({ hubId: "hub-1", epoch: 2, memoryCursor: { txid: "0", seq: 0 } });
    expect(store.hub.duePushes(10)).toMatchObject([{ memoryId: saved.id, baseSeq: 0 }]);
    expect(store.hub.pending()).toEqual({ memories: 1, events: 1 });
    expect(store.hub.acknowledgedMemories("", 10)).toEqual([]);
    expect(store.hub.notice()).toEqual({ text: "the hub lost rows", at: now() });
  });

  it("queues again just the memories and events the hub no longer holds", () => {
    store.hub.configure(HUB);
    const [a, b] = [memory("kept"), memory("lost")];
    for (const m of [a, b]) store.insert(m, { at: now(), action: "created", sessionId: "", detail: "" });
    store.hub.settlePushes(store.hub.duePushes(10).map((d, i) => ({ memoryId: d.memoryId, token: d.token, seq: i + 1 })));
    const events = store.hub.dueEvents(10);
    store.hub.settleEvents(events.map((e) => e.eventId));
    store.hub.requeue([b.id], [events[1]?.eventId as number], { text: "lost 1", at: now() });
    expect(store.hub.duePushes(10)).toMatchObject([{ memoryId: b.id, baseSeq: 0 }]);
    expect(store.hub.dueEvents(10).map((e) => e.eventId)).toEqual([events[1]?.eventId]);
    expect(store.hub.acknowledgedMemories("", 10).map((r) => r.id)).toEqual([a.id]);
  });

  it("keeps its place on a new password for the same hub, and starts over for another hub or person", () => {
    store.hub.configure(HUB);
    store.insert(memory("one"));
    store.hub.applyMemories([], { txid: "5", seq: 5 });
    expect(store.hub.configure("postgres://ada:two@hub.example/memd")).toBe(0);
    expect(store.hub.link()).toMatchObject({ url: "postgres://ada:two@hub.example/memd", memoryCursor: { txid: "5", seq: 5 } });
    expect(store.hub.configure("postgres://bo:two@hub.example/memd")).toBe(1);
    expect(store.hub.link()?.memoryCursor).toEqual({ txid: "0", seq: 0 });
    store.hub.configure(null);
    expect(store.hub.link()).toBeNull();
    expect(store.hub.pending()).toEqual({ memories: 0, events: 0 });
  });
});
