import path from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import Database from "better-sqlite3";
import { startBenchDaemon } from "./daemon-process.js";
import { type LatencySummary, measureSequential, round2 } from "./latency.js";
import { createMemoryLoader } from "./load-memories.js";
import { mulberry32 } from "./seeded-random.js";
import type { SyntheticCorpus } from "./synthetic-memories.js";
import { count, formatTable } from "./table.js";
import { verdict } from "./targets.js";

export interface OutsideLockSeeds {
  imported: number;
  ids: number;
  gets: number;
  queries: number;
  saved: number;
}

type Operation = "Health" | "Get" | "Search";

export interface OutsideLockRow {
  operation: Operation;
  free: LatencySummary;
  locked: LatencySummary;
}

export interface OutsideLockResult {
  memories: number;
  /** Saves kept waiting for the lock throughout, from as many concurrent callers. */
  waitingWriters: number;
  rows: OutsideLockRow[];
  /** A Save with a 500 ms deadline while the lock is held: how it was refused, and after how long. */
  refusedSave: { code: string; ms: number };
  /** The waiting Saves once the lock was released: stored, and refused (their 5 s wait ran out). */
  writersAfter: { stored: number; refused: number };
}

const CALLS = 500;
const WARMUP = 50;
const WAITING_WRITERS = 4;
const SAVE_DEADLINE_MS = 500;
// From the issue: Health must stay this fast while another process holds the write lock.
const HEALTH_P99_TARGET_MS = 50;

/**
 * Health, Get and keyword Search p50/p99 in a daemon holding `memories`, first with the database
 * free, then while this process holds its write lock in BEGIN IMMEDIATE (as the sqlite3 shell
 * would) and concurrent Saves wait for it. A daemon whose writes waited inside SQLite would
 * block its event loop, and every call with it, for each Save's busy wait.
 */
export async function measureOutsideLock(
  corpus: SyntheticCorpus,
  options: { memories: number; seeds: OutsideLockSeeds; progress: (line: string) => void },
): Promise<OutsideLockResult> {
  const { seeds, progress } = options;
  const daemon = await startBenchDaemon({ MEMD_EMBEDDER: "none" });
  const outside = new Database(path.join(daemon.home, "memd.db"));
  try {
    progress(`lock: importing ${count(options.memories)} memories`);
    const loader = createMemoryLoader(corpus.memories(seeds.imported), daemon.clients.admin, seeds.ids);
    await loader.load(options.memories);
    const { memory, admin } = daemon.clients;
    const measure = async (): Promise<Record<Operation, LatencySummary>> => {
      const pick = mulberry32(seeds.gets);
      const nextQuery = corpus.queries(seeds.queries);
      return {
        Health: await measureSequential(CALLS, WARMUP, () => admin.health({})),
        Get: await measureSequential(CALLS, WARMUP, () => memory.get({ id: loader.ids[Math.floor(pick() * loader.ids.length)] ?? "" })),
        Search: await measureSequential(CALLS, WARMUP, () => memory.search(nextQuery())),
      };
    };
    progress("lock: measuring with the database free");
    const free = await measure();

    outside.exec("BEGIN IMMEDIATE");
    progress(`lock: write lock taken; ${WAITING_WRITERS} Saves wait for it while measuring`);
    const nextMemory = corpus.memories(seeds.saved);
    let releasing = false;
    const outcomes = { stored: 0, refused: 0 };
    const writer = async () => {
      while (!releasing) {
        try {
          await memory.save({ ...nextMemory(), importance: 3, confidence: 0.5 });
          outcomes.stored += 1;
        } catch (error) {
          if (ConnectError.from(error).code !== Code.Unavailable) throw error;
          outcomes.refused += 1;
        }
      }
    };
    const writers = Array.from({ length: WAITING_WRITERS }, writer);
    const locked = await measure();
    const refusedStarted = performance.now();
    let refusedCode = "OK";
    try {
      await memory.save({ ...nextMemory(), importance: 3, confidence: 0.5 }, { timeoutMs: SAVE_DEADLINE_MS });
    } catch (error) {
      refusedCode = Code[ConnectError.from(error).code];
    }
    const refusedSave = { code: refusedCode, ms: round2(performance.now() - refusedStarted) };
    const lockedOutcomes = { ...outcomes };
    releasing = true;
    outside.exec("COMMIT");
    await Promise.all(writers);
    const rows = (["Health", "Get", "Search"] as const).map((operation) => ({ operation, free: free[operation], locked: locked[operation] }));
    return {
      memories: options.memories,
      waitingWriters: WAITING_WRITERS,
      rows,
      refusedSave,
      writersAfter: { stored: outcomes.stored - lockedOutcomes.stored, refused: outcomes.refused - lockedOutcomes.refused },
    };
  } finally {
    if (outside.inTransaction) outside.exec("ROLLBACK");
    outside.close();
    await daemon.stop();
  }
}

export function formatOutsideLock(result: OutsideLockResult): string {
  const table = formatTable(
    [{ title: "operation" }, { title: "free p50 ms", right: true }, { title: "free p99 ms", right: true }, { title: "locked p50 ms", right: true }, { title: "locked p99 ms", right: true }, { title: "target" }],
    result.rows.map((row) => [
      row.operation,
      row.free.p50Ms.toFixed(2),
      row.free.p99Ms.toFixed(2),
      row.locked.p50Ms.toFixed(2),
      row.locked.p99Ms.toFixed(2),
      row.operation === "Health" ? `p99 <= ${HEALTH_P99_TARGET_MS} ms: ${verdict(row.locked.p99Ms <= HEALTH_P99_TARGET_MS, `Health while another process holds the lock: p99 <= ${HEALTH_P99_TARGET_MS} ms`)}` : "",
    ]),
  );
  return [
    `${count(result.memories)} memories, keyword only; ${CALLS} sequential calls per row; "locked": another process holds BEGIN IMMEDIATE while ${result.waitingWriters} Saves wait for it`,
    "",
    table,
    "",
    `a Save with a ${SAVE_DEADLINE_MS} ms deadline under the lock: ${result.refusedSave.code} after ${result.refusedSave.ms.toFixed(0)} ms`,
    `the Saves waiting when the lock was released: ${result.writersAfter.stored} stored, ${result.writersAfter.refused} refused as unavailable`,
  ].join("\n");
}
