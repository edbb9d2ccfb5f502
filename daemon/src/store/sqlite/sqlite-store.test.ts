import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SchemaTooNewError } from "../../errors.js";
import type { MemoryRecord } from "../../memory/memory.js";
import { buildMemory } from "../../memory/new-memory.js";
import { MIGRATIONS } from "./migrations.js";
import { normalizedContentHash } from "../../lifecycle/content-hash.js";
import { SqliteStore } from "./sqlite-store.js";
import { openStore } from "../open-store.js";

let dir: string;
let file: string;
const now = () => Date.UTC(2026, 10, 29);
const limits = { maxContentBytes: 65536 };
let seq = 0;

function memory(content: string, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  seq += 1;
  return { ...buildMemory({ content, project: "acme-api" }, `01J${String(seq).padStart(23, "0")}`, now(), limits), ...extra };
}

function open(migrations = MIGRATIONS): SqliteStore {
  return openStore({ file, backupDir: path.join(dir, "backups"), now, migrations });
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-store-"));
  file = path.join(dir, "memd.db");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore keyword search", () => {
  it("finds identifiers, ticket ids, paths, commands and error codes exactly", () => {
    const store = open();
    const targets = {
      ECONNRESET: memory("Stripe webhook worker dies with ECONNRESET under load"),
      "PAY-1423": memory("PAY-1423 double charge when the webhook retries"),
      "src/auth/session.ts": memory("Session cookies are set in one place", { files: ["src/auth/session.ts"] }),
      "make migrate-up": memory("Run make migrate-up before the integration tests"),
      TS2345: memory("TS2345 comes from the zod schema inference in api types"),
    };
    store.insert(memory("Unrelated note about session timeouts and payments"));
    for (const m of Object.values(targets)) store.insert(m);
    for (const [query, expected] of Object.entries(targets)) {
      const results = store.searchKeyword({ query, filter: { kinds: [], statuses: ["active"] }, limit: 5 });
      expect(results[0]?.memory.id, query).toBe(expected.id);
    }
    store.close();
  });

  it("ranks a match in concepts above one in passing text", () => {
    const store = open();
    const passing = memory("We talked about redis once while planning the release");
    const tagged = memory("Sessions are cached for 15 minutes", { concepts: ["redis", "caching"] });
    store.insert(passing);
    store.insert(tagged);
    const results = store.searchKeyword({ query: "redis", filter: { kinds: [], statuses: ["active"] }, limit: 5 });
    expect(results.map((r) => r.memory.id)).toEqual([tagged.id, passing.id]);
  });

  it("keeps the index in step with updates and leaves no stale terms behind", () => {
    const store = open();
    const m = memory("The cache lives in memcached");
    store.insert(m);
    store.modify(m.id, (current) => ({ ...current, content: "The cache lives in redis" }));
    const find = (query: string) =>
      store.searchKeyword({ query, filter: { kinds: [], statuses: ["active"] }, limit: 5 }).map((r) => r.memory.id);
    expect(find("memcached")).toEqual([]);
    expect(find("redis")).toEqual([m.id]);
    store.close();
  });

  it("filters by project, kind and status", () => {
    const store = open();
    const active = memory("deploys go through argo", { kind: "procedure" });
    const archived = memory("deploys go through jenkins", { status: "archived" });
    const other = memory("deploys go through flux", { project: "other" });
    for (const m of [active, archived, other]) store.insert(m);
    const ids = store
      .searchKeyword({ query: "deploys", filter: { projects: ["acme-api"], kinds: ["procedure"], statuses: ["active"] }, limit: 10 })
      .map((r) => r.memory.id);
    expect(ids).toEqual([active.id]);
    store.close();
  });
});

describe("SqliteStore keyword search windows", () => {
  it("finds an active match ranked below many filtered-out ones", () => {
    const store = open();
    const archived = Array.from({ length: 200 }, (_, i) => memory(`kestrel kestrel kestrel note ${i}`, { status: "archived" }));
    store.importMany(archived);
    const active = memory("a single kestrel sighting in a long sentence about many other unrelated topics entirely");
    store.insert(active);
    const results = store.searchKeyword({ query: "kestrel", filter: { kinds: [], statuses: ["active"] }, limit: 5 });
    expect(results.map((r) => r.memory.id)).toEqual([active.id]);
    store.close();
  });

  it("puts memories with every term before those with only some", () => {
    const store = open();
    const some = memory("redis redis redis redis everywhere");
    const all = memory("redis eviction policy is allkeys-lru");
    store.insert(some);
    store.insert(all);
    const results = store.searchKeyword({ query: "redis eviction", filter: { kinds: [], statuses: ["active"] }, limit: 5 });
    expect(results.map((r) => r.memory.id)).toEqual([all.id, some.id]);
    store.close();
  });

  it("moves a memory's index entry with it when its project changes", () => {
    const store = open();
    const m = memory("the heron service owns billing");
    store.insert(m);
    store.modify(m.id, (current) => ({ ...current, project: "billing" }));
    const find = (project: string) =>
      store.searchKeyword({ query: "heron", filter: { projects: [project], kinds: [], statuses: ["active"] }, limit: 5 }).length;
    expect(find("acme-api")).toBe(0);
    expect(find("billing")).toBe(1);
    store.close();
  });
});

describe("SqliteStore absent phrases", () => {
  it("names the query's words the projects lack, with how many memories of each other project use them", () => {
    const store = open();
    store.importMany([
      memory("the ingest job runs nightly", { project: "pipeline" }),
      memory("dbt models build nightly in the XL warehouse", { project: "analytics" }),
      memory("dbt docs are rebuilt weekly", { project: "analytics" }),
      memory("we dropped dbt", { project: "infra", status: "archived" }),
      memory("the warehouse is Snowflake", { project: "infra" }),
    ]);
    const absent = store.absentPhrases("nightly dbt warehouse cost", { projects: ["pipeline", "global"], kinds: [], statuses: ["active"] });
    expect(absent.map(({ phrase, projects }) => [phrase.join(" "), Object.fromEntries(projects)])).toEqual([
      ["dbt", { analytics: 2 }],
      ["warehous", { analytics: 1, infra: 1 }],
    ]);
    store.close();
  });
});

describe("SqliteStore change count", () => {
  it("moves with every write, access counts and rolled-back ones included, and stays put through reads and searches with nothing pending", () => {
    const store = open();
    const a = memory("webhook retries double-charged customers");
    store.insert(a);
    const search = () => store.searchKeyword({ query: "webhook", filter: { kinds: [], statuses: ["active"] }, limit: 5 });
    // The search index takes in the insert, which clears its notes of changed rows: a write too.
    search();
    const counts = [store.changeCount()];
    store.memoriesBySeq([store.seqOf(a.id) as number]);
    search();
    counts.push(store.changeCount());
    store.recordAccess([a.id], now());
    counts.push(store.changeCount());
    store.modify(a.id, (m) => ({ ...m, content: "webhook retries are capped" }));
    counts.push(store.changeCount());
    expect(() =>
      store.modify(a.id, (): never => {
        store.recordAccess([a.id], now());
        throw new Error("roll back");
      }),
    ).toThrow("roll back");
    counts.push(store.changeCount());
    expect(counts[1]).toBe(counts[0]);
    expect(counts[2]).toBeGreaterThan(counts[1] as number);
    expect(counts[3]).toBeGreaterThan(counts[2] as number);
    expect(counts[4]).toBeGreaterThan(counts[3] as number);
    store.close();
  });
});

describe("SqliteStore import", () => {
  it("creates, then leaves identical memories unchanged, then updates changed ones", () => {
    const store = open();
    const a = memory("first");
    const b = memory("second");
    expect(store.importMany([a, b])).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(store.importMany([a, b])).toEqual({ created: 0, updated: 0, unchanged: 2 });
    expect(store.importMany([{ ...a, content: "first, corrected" }, b])).toEqual({ created: 0, updated: 1, unchanged: 1 });
    expect(store.get(a.id)?.content).toBe("first, corrected");
    store.close();
  });

  it("exports every memory oldest first across pages, whatever its status", () => {
    const store = open();
    const all = Array.from({ length: 1203 }, (_, i) => memory(`note ${i}`, { status: i % 3 === 0 ? "archived" : "active" }));
    store.importMany(all);
    expect([...store.exportAll()].map((m) => m.id)).toEqual(all.map((m) => m.id));
    store.close();
  });
});

describe("SqliteStore schema", () => {
  it("refuses a database written by a newer schema and leaves the file untouched", () => {
    open().close();
    const db = new Database(file);
    db.pragma("user_version = 99");
    db.close();
    const before = fs.readFileSync(file);
    expect(() => open()).toThrow(SchemaTooNewError);
    expect(() => open()).toThrow(/schema version 99.*upgrade memd/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it("copies an existing database aside before applying a new migration", () => {
    const store = open();
    const kept = memory("survives the upgrade");
    store.insert(kept);
    store.close();
    const latest = MIGRATIONS.length;
    const next = [...MIGRATIONS, { version: latest + 1, name: "test column", up: (db: Database.Database) => db.exec("ALTER TABLE memories ADD COLUMN extra TEXT") }];
    const upgraded = open(next);
    expect(upgraded.schemaVersion).toBe(latest + 1);
    expect(upgraded.backupFile).not.toBeNull();
    upgraded.close();
    const backup = new Database(upgraded.backupFile as string, { readonly: true });
    expect(backup.pragma("user_version", { simple: true })).toBe(latest);
    expect(backup.prepare("SELECT content FROM memories WHERE id = ?").get(kept.id)).toEqual({ content: "survives the upgrade" });
    backup.close();
  });

  it("rolls back a failing migration completely and keeps the old version", () => {
    open().close();
    const failing = [
      ...MIGRATIONS,
      {
        version: MIGRATIONS.length + 1,
        name: "fails halfway",
        up: (db: Database.Database) => {
          db.exec("CREATE TABLE half_done (x)");
          throw new Error("boom");
        },
      },
    ];
    expect(() => open(failing)).toThrow("boom");
    const db = new Database(file, { readonly: true });
    expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").get()).toBeUndefined();
    db.close();
  });

  it("puts the database in WAL mode", () => {
    const store = open();
    store.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });
});

describe("SqliteStore projects", () => {
  it("gives two directories with the same folder name different project names", () => {
    const store = open();
    expect(store.projectForRoot("/home/maya/code/api", "api")).toBe("api");
    expect(store.projectForRoot("/home/maya/work/api", "api")).toMatch(/^api-[0-9a-f]{6}$/);
    expect(store.projectForRoot("/home/maya/code/api", "api")).toBe("api");
    store.close();
  });
});

describe("SqliteStore entity links", () => {
  it("links every memory of a database from before the graph when opened with an extractor, past the first step", () => {
    // A database of a memd from before the graph: its memories were stored without links.
    const unlinked = new SqliteStore({ file, backupDir: path.join(dir, "backups"), now, entitiesOf: () => [], contentHashOf: normalizedContentHash });
    unlinked.importMany(Array.from({ length: 2500 }, (_, i) => memory(`Ticket PAY-${1000 + i} needs a refund retry`)));
    unlinked.close();
    const store = openStore({ file, backupDir: path.join(dir, "backups"), now });
    const graph = (ticket: string) =>
      store.searchGraph({ keys: [ticket], projects: undefined, statuses: ["active"], limit: 5, hopFrom: 0, hopEntities: 0, hopDiscount: 0 }).map((hit) => hit.facets.id);
    expect(graph("pay-1000")).toHaveLength(1);
    expect(graph("pay-3499")).toHaveLength(1);
    store.close();
  });
});

describe("SqliteStore session neighbours", () => {
  it("gives the memories just before and after one in its session, as the database is now", () => {
    const store = open();
    const turns = ["first", "second", "third"].map((content, i) => memory(content, { sessionId: "s1", createdAt: now() + i }));
    const seqs = turns.map((m) => store.insert(m));
    const active = { kinds: [], statuses: ["active" as const] };
    const around = (seq: number) => (store.sessionNeighbours([seq], active, 1).get(seq) ?? []).map((row) => row.facets.id);
    expect(around(seqs[1] as number)).toEqual([turns[0]?.id, turns[2]?.id]);
    // Moved to another session by an update, and archived: both seen without a reload.
    store.modify(turns[0]?.id as string, (m) => ({ ...m, sessionId: "s2" }));
    store.modify(turns[2]?.id as string, (m) => ({ ...m, status: "archived" }));
    expect(around(seqs[1] as number)).toEqual([]);
    expect(store.sessionNeighbours([seqs[1] as number], active, 1).has(seqs[1] as number)).toBe(false);
    store.close();
  });
});

describe("SqliteStore contradictions of deleted memories", () => {
  it("leaves no contradiction naming a memory deleted by any path, the purge or another process", () => {
    const store = open();
    const [clerk, auth0, okta] = [memory("Auth is Clerk"), memory("Auth moved to Auth0"), memory("Auth is Okta", { status: "archived" })];
    for (const m of [clerk, auth0, okta]) store.insert(m);
    const pair = (memoryId: string, otherId: string) =>
      store.contradictions.record({ memoryId, otherId, foundAt: now(), via: "save", detector: "rules", score: 0.9, subject: "auth provider", newerSays: "", olderSays: "" });
    pair(auth0.id, clerk.id);
    pair(okta.id, clerk.id);
    store.purgeArchived(path.join(dir, "backup.db"));
    expect(store.contradictions.list({ settled: true, limit: 10 }).map((c) => c.memoryId)).toEqual([auth0.id]);
    store.close();
    // As the sqlite3 shell would: no memd code runs.
    const db = new Database(file);
    db.prepare("DELETE FROM memories WHERE id = ?").run(auth0.id);
    expect(db.prepare("SELECT COUNT(*) FROM contradictions").pluck().get()).toBe(0);
    db.close();
  });
});
