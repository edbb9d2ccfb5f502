import type { MemoryRecords } from "../store/store.js";
import type { MemoryRecord } from "./memory.js";

/**
 * The memories reached from `start` along `link` (supersedes: older claims; supersededBy: newer
 * ones), nearest first. `seen` guards against a cycle in imported data.
 */
export function followClaims(
  store: Pick<MemoryRecords, "get">,
  start: MemoryRecord,
  link: "supersedes" | "supersededBy",
  seen: Set<string> = new Set([start.id]),
): MemoryRecord[] {
  const found: MemoryRecord[] = [];
  for (let m = start; m[link] !== "" && !seen.has(m[link]); ) {
    const next = store.get(m[link]);
    if (!next) break;
    seen.add(next.id);
    found.push(next);
    m = next;
  }
  return found;
}

/** The chain of corrections `start` belongs to, oldest first. */
export function claimChain(store: Pick<MemoryRecords, "get">, start: MemoryRecord): MemoryRecord[] {
  const seen = new Set([start.id]);
  const older = followClaims(store, start, "supersedes", seen);
  const newer = followClaims(store, start, "supersededBy", seen);
  return [...older.reverse(), start, ...newer];
}
