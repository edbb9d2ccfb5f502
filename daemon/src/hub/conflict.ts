import { createHash } from "node:crypto";
import type { HubRecord } from "../memory/author.js";
import type { MemoryEvent } from "../memory/memory.js";
import { READ_FIELDS } from "../memory/merge-reads.js";

/** One machine's version of a memory, as the hub compares them. */
export interface MemoryVersion {
  record: HubRecord;
  /** The machine that wrote it (a local database's id). */
  machine: string;
}

/** True when two versions hold the same memory, reads aside. */
export function sameMemory(a: HubRecord, b: HubRecord): boolean {
  return canonical(withoutReads(a)) === canonical(withoutReads(b));
}

/**
 * The rule for two machines that changed the same memory since the version both last had.
 * One version becomes the row and the other is kept in the memory's history (conflictEvent), so
 * nothing is lost silently. The winner:
 *   1. a version that records a supersede (status superseded): a correction is never undone by
 *      an edit made elsewhere meanwhile, so supersede chains stay whole;
 *   2. then the later change (updatedAt);
 *   3. then, for the same millisecond, the greater machine id, so every machine decides alike.
 */
export function winnerOf(a: MemoryVersion, b: MemoryVersion): MemoryVersion {
  const rank = (v: MemoryVersion): [number, number, string] => [v.record.status === "superseded" ? 1 : 0, v.record.updatedAt, v.machine];
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < ra.length; i += 1) {
    const [x, y] = [ra[i] as number | string, rb[i] as number | string];
    if (x !== y) return x > y ? a : b;
  }
  return a;
}

/** The history entry that keeps the losing version of a conflict, whole, on the memory. */
export function conflictEvent(loser: MemoryVersion, winner: MemoryVersion, at: number): MemoryEvent {
  return {
    memoryId: loser.record.id,
    at,
    action: "conflict",
    sessionId: "",
    detail: JSON.stringify({ kept: winner.machine, replaced: loser.machine, replacedVersion: loser.record }),
  };
}

/**
 * The key of a conflict's history entry: the same two versions always give the same key, so a
 * push retried after a crash records the conflict once.
 */
export function conflictKey(loser: MemoryVersion, winner: MemoryVersion): string {
  const hash = createHash("sha256").update(canonical(withoutReads(loser.record))).update("\0").update(canonical(withoutReads(winner.record))).digest("hex");
  return `conflict:${loser.record.id}:${hash.slice(0, 32)}`;
}

function withoutReads(record: HubRecord): Partial<HubRecord> {
  const copy: Partial<HubRecord> = { ...record };
  for (const field of READ_FIELDS) delete copy[field];
  return copy;
}

/** JSON with keys in order, so that equal records give equal text whatever built them. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
