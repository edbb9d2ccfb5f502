import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EmbeddingRuntime } from "../embed/embedding-runtime.js";
import { decayWeight } from "../lifecycle/decay.js";
import { DAY_MS, DEFAULT_HALF_LIVES } from "../lifecycle/half-lives.js";
import type { MemoryRecord } from "../memory/memory.js";
import { buildMemory } from "../memory/new-memory.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { openStore } from "../store/open-store.js";
import { Maintenance } from "./maintenance.js";

const START = Date.UTC(2025, 0, 6);
const limits = { maxContentBytes: 65536 };

let dir: string;
let store: SqliteStore;
let clock: number;
let ids: number;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-maint-"));
  clock = START;
  ids = 0;
  store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now: () => clock });
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const nextId = () => `01J${String(++ids).padStart(23, "0")}`;

function episode(content: string): MemoryRecord {
  return buildMemory({ content, kind: "episode", project: "webapp" }, nextId(), clock, limits);
}

/** Stands in for the embedding runtime: every memory has the same vector, so all are similar. */
function sameVectorForAll(): EmbeddingRuntime {
  const runtime = {
    vectorsOf: (seqs: readonly number[]) => new Map(seqs.map((seq) => [seq, Float32Array.of(1, 0)])),
  };
  return runtime as unknown as EmbeddingRuntime;
}

function maintenance(): Maintenance {
  return new Maintenance({
    store,
    changes: store.changes,
    embeddings: sameVectorForAll(),
    logger: pino({ level: "silent" }),
    now: () => clock,
    newId: nextId,
    halfLives: DEFAULT_HALF_LIVES,
  });
}

describe("consolidation", () => {
  it("carries the originals' latest reinforcement over to the merged memory, so its decay clock does not go back", async () => {
    const repeated = episode("The deploy failed because the build cache was stale.");
    const other = episode("The deploy failed because Node was not pinned.");
    store.insert(repeated);
    store.insert(other);
    // Two weeks later the first is saved again: its decay clock restarts there.
    const reinforcedAt = START + 14 * DAY_MS;
    store.modify(repeated.id, (m) => m, () => ({ at: reinforcedAt, action: "reinforced", sessionId: "s2", detail: "" }));

    // Day 42: 28 days after the repeat (weight 0.25) and 42 after creation (0.125), both aging.
    clock = START + 42 * DAY_MS;
    const [merge] = await maintenance().consolidate(false);
    const merged = merge?.memory as MemoryRecord;
    expect(merged.createdAt).toBe(START);
    expect(store.lastReinforcements().get(merged.id)).toBe(reinforcedAt);
    const weight = decayWeight(merged, store.lastReinforcements().get(merged.id) ?? null, clock, DEFAULT_HALF_LIVES);
    expect(weight).toBeCloseTo(0.25, 10);

    // Day 60: 46 days after the repeat (0.10, kept); from creation it would be 60 days (0.05, archived).
    clock = START + 60 * DAY_MS;
    expect(await maintenance().clean(true)).toEqual([]);
    clock = START + 61 * DAY_MS;
    expect(await maintenance().clean(true)).toEqual([{ memoryId: merged.id, reason: "decayed", relatedId: "" }]);
  });

  it("records no reinforcement for a merge of memories that were never reinforced after being created together", async () => {
    store.insert(episode("The deploy failed because the build cache was stale."));
    store.insert(episode("The deploy failed because Node was not pinned."));
    clock = START + 30 * DAY_MS;
    const [merge] = await maintenance().consolidate(false);
    expect(merge).toBeDefined();
    expect(store.lastReinforcements().has(merge?.memory.id as string)).toBe(false);
    expect(store.events([merge?.memory.id as string]).map((e) => e.action)).toEqual(["created"]);
  });
});

describe("the injection record's retention", () => {
  const record = (at: number) => ({
    at, sessionId: "s", agent: "codex", via: "UserPromptSubmit", kind: "pointers" as const, project: "webapp", prompt: "", memories: [], text: "", tokens: 0,
  });
  const kept = () => store.injectionLog.list({ onlyInjected: false, limit: 100 }).map((r) => r.at);

  it("is pruned when maintenance starts and after a run: days first, then the oldest rows past the cap", async () => {
    clock = START + 40 * DAY_MS;
    store.injectionLog.add([record(START), record(START + 20 * DAY_MS), record(START + 39 * DAY_MS)]);
    const m = new Maintenance({
      store, changes: store.changes, embeddings: null, logger: pino({ level: "silent" }), now: () => clock, newId: nextId, halfLives: DEFAULT_HALF_LIVES,
      everySaves: 1, injections: { log: store.injectionLog, retention: { days: 30, rows: 3 } },
    });
    m.start();
    expect(kept()).toEqual([START + 39 * DAY_MS, START + 20 * DAY_MS]);
    store.injectionLog.add([record(clock - 2), record(clock - 1)]);
    // A save by any write path: maintenance hears of it from the store's change feed.
    store.insert(episode("The deploy needs the staging key."), { at: clock, action: "created", sessionId: "", detail: "" });
    await expect.poll(kept).toEqual([clock - 1, clock - 2, START + 39 * DAY_MS]);
    await m.stop();
  });
});
