import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UnavailableError } from "../errors.js";
import type { MemoryKind, MemoryRecord } from "../memory/memory.js";
import { buildMemory } from "../memory/new-memory.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { openStore } from "../store/open-store.js";
import { hybridSearch, type VectorCandidates } from "./hybrid-search.js";

const NOW = Date.UTC(2026, 10, 29);
const FIRST = "01J00000000000000000000001";
const SECOND = "01J00000000000000000000002";

let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-hybrid-"));
  store = openStore({
    file: path.join(dir, "memd.db"),
    backupDir: path.join(dir, "backups"),
    now: () => NOW,
  });
});

afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function save(id: string, content: string): number {
  return store.insert(buildMemory({ content, project: "ledger", concepts: ["webhooks"] }, id, NOW, { maxContentBytes: 65536 }));
}

/** Vector candidates whose query embedding takes a while; `during` runs just before the vector arrives. */
function slowEmbedder(log: string[], during: () => void = () => undefined): VectorCandidates {
  return {
    nearest: () =>
      new Promise((resolve) =>
        setTimeout(() => {
          during();
          log.push("embedded");
          resolve([]);
        }, 20),
      ),
  };
}

/** A worker that posts a reply, then marks `workerData` (an Int32Array on shared memory) to say it has. */
const WORKER_REPLY = `const { parentPort, workerData } = require("node:worker_threads"); parentPort.postMessage("vector"); Atomics.store(workerData, 0, 1);`;

type Spied = "searchKeywordScopes" | "searchGraph" | "rankingFacets" | "memoriesBySeq";

/** Notes each call of the store's `method` in `log` as `entry` says (nothing when it says undefined). */
function logCalls<M extends Spied>(log: string[], method: M, entry: (...args: Parameters<SqliteStore[M]>) => string | undefined): void {
  const original = store[method].bind(store) as (...args: Parameters<SqliteStore[M]>) => ReturnType<SqliteStore[M]>;
  Object.assign(store, {
    [method]: (...args: Parameters<SqliteStore[M]>) => {
      const line = entry(...args);
      if (line !== undefined) log.push(line);
      return original(...args);
    },
  });
}

/** Notes each read of whole memories (of at least one) as "read N". */
function logReads(log: string[]): string[] {
  logCalls(log, "memoriesBySeq", (seqs) => (seqs.length > 0 ? `read ${seqs.length}` : undefined));
  return log;
}

function search(vectors: VectorCandidates, vectorWaitMs?: number, embedded?: (ms: number) => void) {
  const filter = { kinds: [], statuses: ["active" as const] };
  return hybridSearch(store, vectors, { query: "webhook retries", project: "ledger", excludeGlobal: false, filter, limit: 10, now: NOW, vectorWaitMs, embedded });
}

/**
 * Makes the first keyword search hold the event loop, as a large one does, for `ms` and until
 * `ready` holds (for at most 20 s, after which the test fails on what it then finds).
 */
function busyKeywordSearch(ms: number, done: () => void = () => undefined, ready: () => boolean = () => true): void {
  let searches = 0;
  logCalls([], "searchKeywordScopes", () => {
    searches += 1;
    if (searches > 1) return undefined;
    const started = performance.now();
    while (performance.now() < started + ms || (!ready() && performance.now() < started + 20_000));
    done();
    return undefined;
  });
}

/** A search during whose query embedding the first memory is changed. */
function searchWhileChanging(change: (memory: MemoryRecord) => MemoryRecord) {
  return search(slowEmbedder([], () => store.modify(FIRST, change)));
}

describe("hybridSearch while the query embeds", () => {
  it("searches keywords and the graph before the query's vector arrives", async () => {
    save(FIRST, "webhook retries double-charged customers");
    const log: string[] = [];
    logCalls(log, "searchKeywordScopes", () => "keyword");
    logCalls(log, "searchGraph", () => "graph");
    const { results } = await search(slowEmbedder(log));
    // "retries" has synonyms, so keyword search runs twice: for the query, and with them.
    expect(log).toEqual(["keyword", "keyword", "graph", "embedded"]);
    expect(results.map((r) => r.memory.id)).toEqual([FIRST]);
  });

  it("leaves out a keyword match archived while the query embedded", async () => {
    save(FIRST, "webhook retries double-charged customers");
    save(SECOND, "webhook retries are capped at five");
    const { results } = await searchWhileChanging((m) => ({ ...m, status: "archived" }));
    expect(results.map((r) => r.memory.id)).toEqual([SECOND]);
  });

  it("reads the likely winners' memories while the query embeds, and none again after", async () => {
    save(FIRST, "webhook retries double-charged customers");
    save(SECOND, "webhook retries are capped at five");
    const log = logReads([]);
    const { results } = await search(slowEmbedder(log));
    expect(log).toEqual(["read 2", "embedded"]);
    expect(results.map((r) => r.memory.content).sort()).toEqual(["webhook retries are capped at five", "webhook retries double-charged customers"]);
  });

  it("reads nothing early when the query's vector is in hand before keyword search ends", async () => {
    save(FIRST, "webhook retries double-charged customers");
    const log = logReads([]);
    logCalls(log, "rankingFacets", () => "ranking");
    const { results } = await search({ nearest: () => Promise.resolve([]) });
    expect(log).toEqual(["ranking", "read 1"]);
    expect(results.map((r) => r.memory.id)).toEqual([FIRST]);
  });

  it("returns a winner as it is after an edit made while the query embedded, not as it was read then", async () => {
    save(FIRST, "webhook retries double-charged customers");
    const { results } = await searchWhileChanging((m) => ({ ...m, content: "webhook retries double-charged customers twice" }));
    expect(results.map((r) => r.memory.content)).toEqual(["webhook retries double-charged customers twice"]);
  });

});

describe("hybridSearch without the embedder", () => {
  it("answers from keywords and the graph, and says why, when the query cannot be embedded", async () => {
    save(FIRST, "webhook retries double-charged customers");
    const failing: VectorCandidates = { nearest: () => Promise.reject(new UnavailableError("the ollama embedder failed: connection refused")) };
    const { results, vectorsSkipped } = await search(failing);
    expect(results.map((r) => r.memory.id)).toEqual([FIRST]);
    expect(vectorsSkipped).toBe("the ollama embedder failed: connection refused");
  });

  it("goes on without vectors when the query's embedding does not arrive within the wait, and calls their search off", async () => {
    save(FIRST, "webhook retries double-charged customers");
    let abandoned: AbortSignal | undefined;
    let arrives = (): void => undefined;
    const late: VectorCandidates = {
      nearest: (_query, _accept, _limit, embedded, signal) => {
        abandoned = signal;
        return new Promise((resolve) => {
          arrives = () => {
            // What the embedder says it took, which no measured wait can be.
            embedded?.(-1);
            resolve([]);
          };
        });
      },
    };
    const waits: number[] = [];
    const { results, vectorsSkipped } = await search(late, 30, (ms) => waits.push(ms));
    expect(results.map((r) => r.memory.id)).toEqual([FIRST]);
    expect(vectorsSkipped).toBe("the query's embedding did not arrive within 30 ms");
    expect(abandoned?.aborted).toBe(true);
    // The wait is what the search spent on it, not what the embedder takes after it gave up.
    arrives();
    expect(waits).toHaveLength(1);
    // Node's timers count whole milliseconds, so a 30 ms wait can read as 28.9 ms on performance.now (a clean-clone run saw it).
    expect(waits[0]).toBeGreaterThanOrEqual(25);
  });

  it("counts the wait from the embedding's request, so keyword search takes its time out of it", async () => {
    save(FIRST, "webhook retries double-charged customers");
    // The vector comes 25 ms after the busy search (50 ms) ends: past the wait (40 ms from the
    // request), but before a wait counted from the end of the search would be over.
    let arrive = (): void => undefined;
    busyKeywordSearch(50, () => setTimeout(arrive, 25));
    const late: VectorCandidates = { nearest: () => new Promise((resolve) => (arrive = () => resolve([]))) };
    const { vectorsSkipped } = await search(late, 40);
    expect(vectorsSkipped).toBe("the query's embedding did not arrive within 40 ms");
  });

  it("takes a vector whose reply came in while keyword search kept the daemon busy past the wait", async () => {
    const seq = save(FIRST, "webhook retries double-charged customers");
    // Posted by a worker thread, as the local embedder's reply is, and delivered as I/O (the
    // event loop reads it after its timers); keyword search holds the loop past the wait and
    // until the worker has posted it.
    const posted = new Int32Array(new SharedArrayBuffer(4));
    busyKeywordSearch(20, undefined, () => Atomics.load(posted, 0) === 1);
    const ioReply: VectorCandidates = {
      nearest: () =>
        new Promise((resolve) => {
          const worker = new Worker(WORKER_REPLY, { eval: true, workerData: posted });
          worker.once("message", () => {
            void worker.terminate();
            resolve([{ seq, score: 0.8 }]);
          });
        }),
    };
    const { results, vectorsSkipped } = await search(ioReply, 20);
    expect(vectorsSkipped).toBe("");
    expect(results[0]?.explanation.vectorSimilarity).toBeCloseTo(0.8);
  });

  it("does not ask for the query's embedding when the deadline leaves no time to wait for it", async () => {
    save(FIRST, "webhook retries double-charged customers");
    let asked = false;
    const { results, vectorsSkipped } = await search({
      nearest: () => {
        asked = true;
        return Promise.resolve([]);
      },
    }, 0);
    expect(asked).toBe(false);
    expect(results.map((r) => r.memory.id)).toEqual([FIRST]);
    expect(vectorsSkipped).toBe("the call's deadline left no time to embed the query");
  });

  it("says nothing was skipped when the vectors arrive within the wait", async () => {
    const seq = save(FIRST, "webhook retries double-charged customers");
    const { results, vectorsSkipped } = await search({ nearest: () => Promise.resolve([{ seq, score: 0.9 }]) }, 1000);
    expect(vectorsSkipped).toBe("");
    expect(results[0]?.explanation.vectorSimilarity).toBeCloseTo(0.9);
  });

  it("fails on an error that is not the embedder's, rather than hiding it", async () => {
    save(FIRST, "webhook retries double-charged customers");
    const broken: VectorCandidates = { nearest: () => Promise.reject(new TypeError("index is not iterable")) };
    await expect(search(broken)).rejects.toThrow("index is not iterable");
  });
});

describe("hybridSearch ranking", () => {
  const filter = { kinds: [], statuses: ["active" as const] };
  const put = (id: string, content: string, project = "ledger", sessionId = "", kind: MemoryKind = "fact") =>
    store.insert(buildMemory({ content, project, sessionId, kind }, id, NOW, { maxContentBytes: 65536 }));
  const ranked = async (query: string, project = "ledger") =>
    (await hybridSearch(store, null, { query, project, excludeGlobal: false, filter, limit: 10, now: NOW })).results.map((r) => r.memory.content);

  it("finds the auth decision for a question about the login provider, through the thesaurus", async () => {
    put("01J00000000000000000000011", "Auth is Clerk, not custom JWT");
    put("01J00000000000000000000012", "The database is Postgres 16 on Neon");
    put("01J00000000000000000000013", "Always use pnpm, never npm, in this repo");
    expect((await ranked("which login provider do we rely on"))[0]).toBe("Auth is Clerk, not custom JWT");
  });

  it("finds a reply that repeats none of the question's words through the turn before it in its session", async () => {
    put("01J00000000000000000000021", "Maria: How did your kids like the military memorial?", "chat", "s1");
    put("01J00000000000000000000022", "John: They were awestruck and humbled.", "chat", "s1");
    put("01J00000000000000000000023", "John: The weather was great for the trip.", "chat", "s2");
    const results = await ranked("How did the kids react at the military memorial?", "chat");
    expect(results.slice(0, 2)).toEqual(["Maria: How did your kids like the military memorial?", "John: They were awestruck and humbled."]);
  });

  it("keeps a reply out of the ranking once it is archived", async () => {
    put("01J00000000000000000000021", "Maria: How did your kids like the military memorial?", "chat", "s1");
    put("01J00000000000000000000022", "John: They were awestruck and humbled.", "chat", "s1");
    store.modify("01J00000000000000000000022", (m) => ({ ...m, status: "archived" }));
    expect(await ranked("How did the kids react at the military memorial?", "chat")).toEqual(["Maria: How did your kids like the military memorial?"]);
  });

  it("keeps other projects' conversations out of a project that holds the answer, however well they match", async () => {
    put("01J00000000000000000000031", "user: my charity 5K run went well, a personal best of 27 minutes", "chat-a", "a1", "context");
    for (let i = 0; i < 6; i++) {
      put(`01J0000000000000000000004${i}`, `user: charity 5K run tips? charity run personal best run ${i}`, `chat-${i}`, `b${i}`, "context");
    }
    expect(await ranked("What was my personal best time in the charity 5K run?", "chat-a")).toEqual([
      "user: my charity 5K run went well, a personal best of 27 minutes",
    ]);
  });

  it("widens to the project that holds most uses of a word the current project lacks", async () => {
    put("01J00000000000000000000051", "The ingest job runs nightly at 02:00", "pipeline", "p1", "context");
    put("01J00000000000000000000052", "The nightly dbt run takes 40 minutes in the XL warehouse", "analytics", "a1", "context");
    put("01J00000000000000000000053", "The dbt docs site is rebuilt weekly", "analytics", "a2", "context");
    put("01J00000000000000000000054", "We tried dbt once and dropped it", "infra", "i1", "context");
    const results = await ranked("how long does the nightly dbt run take?", "pipeline");
    expect(results.slice(0, 2)).toContain("The nightly dbt run takes 40 minutes in the XL warehouse");
    expect(results).not.toContain("We tried dbt once and dropped it");
  });
});
