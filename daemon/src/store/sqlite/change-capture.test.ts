import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MemoryRecord } from "../../memory/memory.js";
import { buildMemory } from "../../memory/new-memory.js";
import type { RecordChange } from "../ports/change-feed.js";
import type { SqliteStore } from "./sqlite-store.js";
import { openStore } from "../open-store.js";

let dir: string;
let store: SqliteStore;
let listenerErrors: unknown[];
const now = () => Date.UTC(2026, 11, 3);
let seq = 0;

function memory(content: string, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  seq += 1;
  return { ...buildMemory({ content, project: "shop" }, `01J${String(seq).padStart(23, "0")}`, now(), { maxContentBytes: 65536 }), ...extra };
}

const event = (action: "created" | "updated" | "archived") => ({ at: now(), action, sessionId: "", detail: "" });

/** Every batch the feed announces from now on, as it arrives. */
function record(): RecordChange[][] {
  const batches: RecordChange[][] = [];
  store.changes.subscribe((changes) => batches.push([...changes]));
  return batches;
}

/** The next batch the feed announces. */
function nextBatch(): Promise<readonly RecordChange[]> {
  return new Promise((resolve) => {
    const stop = store.changes.subscribe((changes) => {
      stop();
      resolve(changes);
    });
  });
}

const brief = (changes: readonly RecordChange[]) => changes.map((c) => `${c.kind} ${c.change} ${c.memoryId}`);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-changes-"));
  listenerErrors = [];
  store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now, onChangeListenerError: (error) => listenerErrors.push(error) });
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the change feed", () => {
  it("announces a saved memory and its history entry once the transaction committed, where another connection already reads them", async () => {
    const saved = memory("Payments go through Stripe Checkout");
    const seenByAnother: unknown[] = [];
    const other = new Database(path.join(dir, "memd.db"), { readonly: true });
    store.changes.subscribe(() => seenByAnother.push(other.prepare("SELECT content FROM memories WHERE id = ?").pluck().get(saved.id)));
    const announced = nextBatch();
    store.insert(saved, event("created"));
    expect(seenByAnother).toEqual([]);
    const changes = await announced;
    other.close();
    expect(changes).toEqual([
      { kind: "memory", id: saved.id, change: "created", memoryId: saved.id, project: "shop" },
      { kind: "memory_event", id: expect.stringMatching(/^\d+$/), change: "created", memoryId: saved.id, project: "shop" },
    ]);
    expect(seenByAnother).toEqual([saved.content]);
  });

  it("announces nothing of a transaction that was rolled back, though its triggers had run", async () => {
    const old = memory("We deploy with Capistrano");
    const taken = memory("An id a correction cannot take");
    store.insert(old);
    store.insert(taken);
    await nextBatch();
    const batches = record();
    // The old claim is updated and its event recorded, then the new claim's insert fails: all of it rolls back.
    expect(() => store.supersede(old.id, (current) => ({ old: { ...current, status: "superseded" }, next: { ...taken, content: "We deploy with Kamal" } }), event("updated"))).toThrow(/UNIQUE constraint failed/);
    const later = memory("Something saved after the failure");
    const announced = nextBatch();
    store.insert(later);
    await announced;
    expect(batches.map(brief)).toEqual([[`memory created ${later.id}`]]);
    expect(store.get(old.id)?.status).toBe("active");
  });

  it("leaves out reads: an access count is no change", async () => {
    const saved = memory("The shop database is PostgreSQL 15");
    store.insert(saved);
    await nextBatch();
    const batches = record();
    store.recordAccess([saved.id], now());
    const announced = nextBatch();
    store.modify(saved.id, (current) => ({ ...current, pinned: true }), () => event("updated"));
    await announced;
    expect(batches.map(brief)).toEqual([[`memory updated ${saved.id}`, `memory_event created ${saved.id}`]]);
  });

  it("announces an import's new and changed memories and a purge's deletions, with the project of each", async () => {
    const kept = memory("Refunds over 500 EUR need a second approval");
    const archived = memory("The old payment provider was Braintree", { status: "archived", project: "legacy" });
    let announced = nextBatch();
    expect(store.importMany([kept, archived])).toMatchObject({ created: 2 });
    expect(brief(await announced)).toEqual([`memory created ${kept.id}`, `memory created ${archived.id}`]);
    announced = nextBatch();
    store.importMany([{ ...kept, content: "Refunds over 500 EUR need a second person's approval" }, archived]);
    expect(brief(await announced)).toEqual([`memory updated ${kept.id}`]);
    announced = nextBatch();
    store.purgeArchived(path.join(dir, "backup.db"));
    expect(await announced).toEqual([{ kind: "memory", id: archived.id, change: "deleted", memoryId: archived.id, project: "legacy" }]);
  });

  it("tells every listener though one throws, reports the error, and tells no one after they unsubscribe", async () => {
    const told: string[] = [];
    store.changes.subscribe(() => {
      throw new Error("a broken listener");
    });
    const stop = store.changes.subscribe((changes) => told.push(...brief(changes)));
    const first = memory("Stripe webhooks are verified with the signing secret");
    let announced = nextBatch();
    store.insert(first);
    await announced;
    expect(told).toEqual([`memory created ${first.id}`]);
    expect(listenerErrors).toEqual([expect.objectContaining({ message: "a broken listener" })]);
    stop();
    announced = nextBatch();
    store.insert(memory("Said after the listener left"));
    await announced;
    expect(told).toHaveLength(1);
  });

  it("merges the transactions committed in one turn into one batch, one change per record", async () => {
    const saved = memory("Sessions are cached for 15 minutes");
    const announced = nextBatch();
    store.insert(saved);
    store.modify(saved.id, (current) => ({ ...current, content: "Sessions are cached for 30 minutes" }));
    store.modify(saved.id, (current) => ({ ...current, tags: ["cache"] }));
    expect(brief(await announced)).toEqual([`memory created ${saved.id}`]);
  });

  it("wakes the worker of each work queue a commit filled, whoever filled it, and none for a rolled-back write", async () => {
    store.vectors.ensureSpace({ provider: "test", model: "words", dimensions: 4 }, now());
    store.vault.configure(path.join(dir, "vault"));
    const old = memory("We deploy with Capistrano");
    const taken = memory("An id a correction cannot take");
    store.insert(old);
    store.insert(taken);
    await nextBatch();
    const woken: string[] = [];
    for (const queue of ["embedding", "vault", "hub"] as const) store.changes.onQueued(queue, () => woken.push(queue));
    // Queued by triggers, then rolled back with the failed insert: no one is woken.
    expect(() => store.supersede(old.id, (current) => ({ old: { ...current, status: "superseded" }, next: { ...taken, content: "We deploy with Kamal" } }), event("updated"))).toThrow(/UNIQUE constraint failed/);
    // No memory changed: a re-queue written straight into the vault's outbox, which the feed of records does not announce.
    store.vault.queue(old.id);
    await new Promise((resolve) => setImmediate(resolve));
    expect(woken).toEqual(["vault"]);
    woken.length = 0;
    const announced = nextBatch();
    store.insert(memory("Invoices are numbered per tenant"), event("created"));
    await announced;
    expect(woken.sort()).toEqual(["embedding", "vault"]);
  });
});
