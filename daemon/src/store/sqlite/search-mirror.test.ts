import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSyntheticCorpus } from "../../../../bench/synthetic-memories.js";
import { MEMORY_KINDS, MEMORY_STATUSES, type MemoryKind, type MemoryRecord, type MemoryStatus } from "../../memory/memory.js";
import { type MemoryFilter, matchesFilter } from "../../memory/memory-filter.js";
import { buildMemory } from "../../memory/new-memory.js";
import { kindFromPb } from "../../services/convert.js";
import { queryChunks } from "../../keywords/query-phrases.js";
import { COLUMN_WEIGHTS } from "./search-mirror.js";
import { type MemoryRow, rowToMemory } from "./memory-row.js";
import type { RankingFacets } from "../store.js";
import type { SqliteStore } from "./sqlite-store.js";
import { openStore } from "../open-store.js";

const NOW = Date.UTC(2026, 10, 29);
const LIMITS = { maxContentBytes: 65536 };
const DEV_SET = path.resolve(import.meta.dirname, "../../../../bench/data/eval-dev");
const EVERYTHING = 1_000_000;

let dir: string;
let file: string;
let nextId = 0;

function id(): string {
  nextId += 1;
  return `01J${String(nextId).padStart(23, "0")}`;
}

function open(): SqliteStore {
  return openStore({ file, backupDir: path.join(dir, "backups"), now: () => NOW });
}

/** The dev set's memories and a synthetic corpus: prose, identifiers, paths, several projects. */
function corpus(synthetic: number): MemoryRecord[] {
  const dev = fs
    .readFileSync(path.join(DEV_SET, "memories.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { content: string; project: string; type: string; status: string; concepts: string[]; files: string[]; problem?: string; solution?: string });
  const records = dev.map((m) => ({
    ...buildMemory(
      {
        content: m.content,
        project: m.project,
        kind: MEMORY_KINDS.includes(m.type as MemoryKind) ? (m.type as MemoryKind) : "fact",
        concepts: m.concepts,
        files: m.files,
        problem: m.problem,
        solution: m.solution,
      },
      id(),
      NOW,
      LIMITS,
    ),
    status: MEMORY_STATUSES.includes(m.status as MemoryStatus) ? (m.status as MemoryStatus) : "active",
  }));
  const next = createSyntheticCorpus(1).memories(2);
  for (let i = 0; i < synthetic; i++) {
    const draft = next();
    records.push(buildMemory({ ...draft, kind: kindFromPb(draft.kind, "fact") }, id(), NOW, LIMITS));
  }
  return records;
}

function queries(): { query: string; project: string }[] {
  const dev = fs
    .readFileSync(path.join(DEV_SET, "queries.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { query: string; project: string });
  const next = createSyntheticCorpus(1).queries(3);
  const synthetic = Array.from({ length: 150 }, () => next());
  const awkward = ["PAY-1423", "src/auth/session.ts", "the of and", "NEAR( \"quoted\" -minus col:on", "retry retry retries", "café naïve"].map(
    (query) => ({ query, project: "global" }),
  );
  return [...dev, ...synthetic, ...awkward];
}

/**
 * What FTS5 itself ranks for a query, in the order searchKeyword promises: rows holding every
 * phrase (the AND query) first, then the rest (the OR query), each by bm25(), ties by seq.
 */
function fts5Ranking(db: Database.Database, query: string): { memory: MemoryRecord; score: number }[] {
  const terms = queryChunks(query)?.map((parts) => `"${parts.join(" ")}"`);
  if (terms === undefined) return [];
  const weights = [...COLUMN_WEIGHTS, 0].join(", ");
  const ranked = (operator: "AND" | "OR") =>
    db
      .prepare(
        `SELECT m.*, bm25(memories_fts, ${weights}) AS rank FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
         WHERE memories_fts MATCH ?`,
      )
      .all(`{content problem solution concepts files tags} : (${terms.join(` ${operator} `)})`) as (MemoryRow & { seq: number; rank: number })[];
  const full = new Set(terms.length > 1 ? ranked("AND").map((row) => row.seq) : []);
  return ranked("OR")
    .map((row) => ({ row, full: terms.length === 1 || full.has(row.seq) }))
    .sort((a, b) => Number(b.full) - Number(a.full) || a.row.rank - b.row.rank || a.row.seq - b.row.seq)
    .map(({ row }) => ({ memory: rowToMemory(row), score: -row.rank }));
}

function filtersFor(project: string): MemoryFilter[] {
  return [
    { kinds: [], statuses: ["active"] },
    { kinds: [], statuses: ["active"], projects: [project, "global"] },
    { kinds: ["decision", "procedure"], statuses: [] },
    // Fields the filter key does not hold are tested on the facets.
    { kinds: [], statuses: ["active"], createdBefore: NOW + 1 },
    { kinds: [], statuses: [], pinnedOnly: true },
  ];
}

/**
 * The same rows in the same order, with the same scores up to the last bit of the logarithm
 * in the IDF (V8's Math.log and the C library's log may differ by one unit in the last place).
 */
function expectSameRanking(store: SqliteStore, reference: Database.Database, every = 1): number {
  let compared = 0;
  queries().forEach(({ query, project }, index) => {
    if (index % every !== 0) return;
    const ranking = fts5Ranking(reference, query);
    for (const filter of filtersFor(project)) {
      const mirrored = store.searchKeyword({ query, filter, limit: EVERYTHING });
      const expected = ranking.filter((hit) => matchesFilter(hit.memory, filter));
      const context = `${query} ${JSON.stringify(filter)}`;
      expect(mirrored.map((hit) => hit.memory.id), context).toEqual(expected.map((hit) => hit.memory.id));
      mirrored.forEach((hit, i) => expect(Math.abs(hit.score - (expected[i]?.score as number)), context).toBeLessThan(1e-12 * Math.max(1, hit.score)));
      compared += mirrored.length;
    }
  });
  return compared;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-keywords-"));
  file = path.join(dir, "memd.db");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the in-memory keyword index", () => {
  it("ranks every query exactly as FTS5's bm25 does: the same rows, order and scores", () => {
    const store = open();
    for (const memory of corpus(1500)) store.insert(memory);
    const reference = new Database(file, { readonly: true });
    expect(expectSameRanking(store, reference)).toBeGreaterThan(10_000);
    reference.close();
    store.close();
  });

  it("follows updates, supersessions, purges and rolled-back writes as FTS5 does", () => {
    const store = open();
    const memories = corpus(300);
    for (const memory of memories) store.insert(memory);
    const [first, second, third] = memories as [MemoryRecord, MemoryRecord, MemoryRecord];
    store.modify(first.id, (m) => ({ ...m, content: "The webhook retry budget is now five attempts", concepts: ["webhooks"] }));
    store.modify(second.id, (m) => ({ ...m, status: "archived" }));
    store.supersede(
      third.id,
      (old) => ({ next: { ...old, id: id(), content: `${old.content} (revised: retries use jitter)` }, old: { ...old, status: "superseded" } }),
      { at: NOW, action: "superseded", sessionId: "", detail: "" },
    );
    expect(() =>
      store.modify(memories[3]?.id as string, (): never => {
        store.modify(memories[4]?.id as string, (inner) => ({ ...inner, content: "a zyzzyva that was never committed" }));
        throw new Error("abandon the write");
      }),
    ).toThrow("abandon the write");
    store.purgeArchived(path.join(dir, "purge-backup.db"));
    const reference = new Database(file, { readonly: true });
    expect(store.searchKeyword({ query: "zyzzyva", filter: { kinds: [], statuses: [] }, limit: 5 })).toEqual([]);
    expect(store.searchKeyword({ query: "webhook retry budget", filter: { kinds: [], statuses: [] }, limit: 1 })[0]?.memory.id).toBe(first.id);
    expectSameRanking(store, reference);
    reference.close();
    store.close();
  });

  it("sees an access in what ranking reads, and still ranks as FTS5 does", () => {
    const store = open();
    const memories = corpus(200);
    for (const memory of memories) store.insert(memory);
    const [first] = memories as [MemoryRecord];
    const seq = store.seqOf(first.id) as number;
    expect(store.rankingFacets()(seq)?.accessCount).toBe(0);
    store.recordAccess([first.id], NOW);
    store.recordAccess([first.id], NOW);
    expect(store.rankingFacets()(seq)).toMatchObject({ id: first.id, accessCount: 2, project: first.project });
    const reference = new Database(file, { readonly: true });
    expectSameRanking(store, reference, 5);
    reference.close();
    store.close();
  });

  it("admits by a row's key or class exactly the memories the filter matches, after updates and deletes too", () => {
    const store = open();
    const memories = corpus(300);
    for (const memory of memories) store.insert(memory);
    const seqs = memories.map((m) => store.seqOf(m.id) as number);
    const everything: MemoryFilter = { kinds: [], statuses: [] };
    // Indexed first, so that the writes below reach the index as changes.
    expect(seqs.every(store.admits(everything))).toBe(true);
    const [deleted, archived] = [memories[0]?.id as string, memories[1]?.id as string];
    store.modify(deleted, (m) => ({ ...m, status: "archived" }));
    store.purgeArchived(path.join(dir, "purged.db"));
    store.modify(archived, (m) => ({ ...m, status: "archived" }));
    store.modify(memories[2]?.id as string, (m) => ({ ...m, pinned: true }));
    const facets = store.rankingFacets();
    const gone = Math.max(...seqs) + 1;
    for (const filter of [...filtersFor(memories[3]?.project as string), everything]) {
      const admits = store.admits(filter);
      const context = JSON.stringify(filter);
      const matching = seqs.filter((seq) => facets(seq) !== undefined && matchesFilter(facets(seq) as RankingFacets, filter));
      expect(seqs.filter(admits), context).toEqual(matching);
      expect(matching.length, context).toBeGreaterThan(0);
      expect(admits(gone), context).toBe(false);
    }
    expect(facets(seqs[0] as number)).toBeUndefined();
    store.close();
  });

  it("reads rows again after a search inside a transaction that then rolls back", () => {
    const store = open();
    const [first, second] = corpus(0) as [MemoryRecord, MemoryRecord];
    store.insert(first);
    store.insert(second);
    const everything = { kinds: [], statuses: [] } as MemoryFilter;
    const seen: string[][] = [];
    expect(() =>
      store.modify(first.id, (): never => {
        store.modify(second.id, (m) => ({ ...m, content: "a quokka note that is never committed" }));
        seen.push(store.searchKeyword({ query: "quokka", filter: everything, limit: 5 }).map((hit) => hit.memory.id));
        throw new Error("roll back");
      }),
    ).toThrow("roll back");
    expect(seen).toEqual([[second.id]]);
    expect(store.searchKeyword({ query: "quokka", filter: everything, limit: 5 })).toEqual([]);
    const word = second.content.split(/\s+/).find((w) => /^[a-z]{6,}$/i.test(w)) as string;
    expect(store.searchKeyword({ query: word, filter: everything, limit: 500 }).map((hit) => hit.memory.id)).toContain(second.id);
    store.close();
  });

  it("shows a later transaction the database, not a change an earlier one rolled back", () => {
    const store = open();
    const [first, second] = corpus(0) as [MemoryRecord, MemoryRecord];
    store.insert(first);
    store.insert(second);
    const word = first.content.split(/\s+/).find((w) => /^[a-z]{6,}$/i.test(w)) as string;
    const active = { kinds: [], statuses: ["active"] } as MemoryFilter;
    const found = () => store.searchKeyword({ query: word, filter: active, limit: 500 }).map((hit) => hit.memory.id);
    expect(found()).toContain(first.id);
    expect(() =>
      store.modify(second.id, (): never => {
        store.modify(first.id, (m) => ({ ...m, status: "archived" }));
        expect(found()).not.toContain(first.id);
        throw new Error("roll back");
      }),
    ).toThrow("roll back");
    let inLaterTransaction: string[] = [];
    store.modify(second.id, (m) => {
      inLaterTransaction = found();
      return m;
    });
    expect(inLaterTransaction).toContain(first.id);
    store.close();
  });

  it("mirrors a bulk import in steps between requests, and a search before they end still sees every row", async () => {
    const store = open();
    store.importMany(corpus(2500));
    // The notes the search mirror has yet to apply, in the store's own connection (they are TEMP).
    const db = (store as unknown as { db: Database.Database }).db;
    const pending = () => db.prepare("SELECT count(*) FROM temp.search_changes").pluck().get() as number;
    const noted = pending();
    expect(noted).toBeGreaterThan(2500);
    await new Promise((resolve) => setImmediate(resolve));
    expect(pending()).toBeLessThan(noted);
    expect(pending()).toBeGreaterThan(0);
    const reference = new Database(file, { readonly: true });
    expect(expectSameRanking(store, reference, 10)).toBeGreaterThan(500);
    expect(pending()).toBe(0);

    store.importMany(corpus(2500).map((memory) => ({ ...memory, id: id() })));
    for (let turn = 0; turn < 20 && pending() > 0; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(pending()).toBe(0);
    expectSameRanking(store, reference, 10);
    reference.close();
    store.close();
  });

  it("loads a large database in steps, and a search before the load ends still sees every row, an import made meanwhile's too", () => {
    const existing = corpus(6000);
    const writer = open();
    writer.importMany(existing);
    writer.close();
    const store = open();
    // Rows the load has indexed and rows it has not reached yet, changed, and new ones past the end.
    const changed = [...existing.slice(10, 15), ...existing.slice(3000, 3005)].map((memory) => ({ ...memory, content: `${memory.content} reconciled twice` }));
    store.importMany([...changed, ...corpus(1500)]);
    const reference = new Database(file, { readonly: true });
    expect(expectSameRanking(store, reference, 10)).toBeGreaterThan(1000);
    reference.close();
    store.close();
  });

  it("is rebuilt from the memories table by rebuildKeywordIndex, after a write it could not see", () => {
    const store = open();
    store.importMany(corpus(1500));
    const target = store.list({ kinds: [], statuses: ["active"] }, { limit: 1 })[0] as MemoryRecord;
    const find = () => store.searchKeyword({ query: "quetzalcoatl", filter: { kinds: [], statuses: ["active"] }, limit: 10 }).map((hit) => hit.memory.id);
    // Caught up with the import: nothing left noted that would make it read the row again.
    expect(find()).toEqual([]);
    // Another connection (the sqlite3 shell, say) is not this store's: its write reaches neither
    // FTS5, whose triggers it bypasses, nor the copy, which follows this connection only.
    const shell = new Database(file);
    shell.exec("DROP TRIGGER memories_fts_update");
    shell.prepare("UPDATE memories SET content = 'quetzalcoatl migration runbook' WHERE id = ?").run(target.id);
    shell.close();
    expect(find()).toEqual([]);

    store.rebuildKeywordIndex();
    expect(find()).toEqual([target.id]);
    const reference = new Database(file, { readonly: true });
    expect(expectSameRanking(store, reference, 10)).toBeGreaterThan(500);
    reference.close();
    store.close();
  });
});
