import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EmbeddingRuntime } from "../embed/embedding-runtime.js";
import { DAY_MS, DEFAULT_HALF_LIVES } from "../lifecycle/half-lives.js";
import type { ClusterSummariser, SummaryOutcome } from "../llm/cluster-summary.js";
import type { MemoryRecord } from "../memory/memory.js";
import { buildMemory } from "../memory/new-memory.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { openStore } from "../store/open-store.js";
import { Maintenance } from "./maintenance.js";

const START = Date.UTC(2025, 0, 6);
const limits = { maxContentBytes: 65536 };
let dir: string;
let store: SqliteStore;
let ids = 0;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-maint-llm-"));
  store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now: () => START });
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const nextId = () => `01J${String(++ids).padStart(23, "0")}`;

/** Every memory has the same vector, so all aging episodes form one cluster. */
const sameVectorForAll = {
  vectorsOf: (seqs: readonly number[]) => new Map(seqs.map((seq) => [seq, Float32Array.of(1, 0)])),
} as unknown as EmbeddingRuntime;

function maintenance(summariser: ClusterSummariser): Maintenance {
  return new Maintenance({
    store, changes: store.changes, embeddings: sameVectorForAll, logger: pino({ level: "silent" }), now: () => START + 30 * DAY_MS, newId: nextId, halfLives: DEFAULT_HALF_LIVES, summariser,
  });
}

function twoEpisodes(): MemoryRecord[] {
  const memories = ["The deploy failed because the build cache was stale.", "The deploy failed because Node was not pinned."].map((content) =>
    buildMemory({ content, kind: "episode", project: "webapp" }, nextId(), START, limits),
  );
  for (const m of memories) store.insert(m);
  return memories;
}

describe("consolidation with a summariser", () => {
  it("leaves a cluster for the next run when one of its memories changes while the model writes", async () => {
    const [first] = twoEpisodes();
    const summariser: ClusterSummariser = {
      label: "ollama:llama3.2",
      async summarise(): Promise<SummaryOutcome> {
        // An Update arrives over the socket while the model is still writing.
        store.modify(first?.id as string, (m) => ({ ...m, content: "The deploy failed because the build cache was stale (fixed).", updatedAt: START + 30 * DAY_MS }));
        return { ok: true, summary: { content: "The deploy failed.", concepts: [] }, madeBy: "ollama:llama3.2" };
      },
    };
    expect(await maintenance(summariser).consolidate(false)).toEqual([]);
    expect(store.list({ kinds: [], statuses: ["active"] }, { limit: 10 })).toHaveLength(2);
  });

  it("merges deterministically when the summariser throws instead of reporting a failure", async () => {
    twoEpisodes();
    const summariser: ClusterSummariser = {
      label: "ollama:llama3.2",
      summarise: () => Promise.reject(new TypeError("a bug")),
    };
    const [consolidation] = await maintenance(summariser).consolidate(false);
    expect(consolidation?.memory.content).toBe("The deploy failed because the build cache was stale.\nThe deploy failed because Node was not pinned.");
  });

  it("does not ask the summariser on a dry run", async () => {
    twoEpisodes();
    let asked = 0;
    const summariser: ClusterSummariser = {
      label: "ollama:llama3.2",
      async summarise() {
        asked += 1;
        return { ok: false, reason: "unused" };
      },
    };
    expect(await maintenance(summariser).consolidate(true)).toHaveLength(1);
    expect(asked).toBe(0);
  });
});
