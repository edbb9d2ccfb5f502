import type { ChangeKind, RecordChange } from "../store/ports/change-feed.js";

/**
 * One change per record, at the place of its first: a record created and then updated in the same
 * batch was created, one created and then deleted is left out, one deleted and then created again
 * was updated. The memory and project are the record's last.
 */
export function coalesceChanges(changes: readonly RecordChange[]): RecordChange[] {
  const byRecord = new Map<string, RecordChange | null>();
  for (const next of changes) {
    const key = `${next.kind}\u0000${next.id}`;
    const seen = byRecord.get(key);
    if (!byRecord.has(key)) {
      byRecord.set(key, next);
      continue;
    }
    const change = seen ? combine(seen.change, next.change) : next.change;
    byRecord.set(key, change === null ? null : { ...next, change });
  }
  return [...byRecord.values()].filter((change): change is RecordChange => change !== null);
}

/** Two changes of one record in a row as one; null when nothing is left of it (created, then deleted). */
function combine(first: ChangeKind, then: ChangeKind): ChangeKind | null {
  if (then === "deleted") return first === "created" ? null : "deleted";
  if (first === "created") return "created";
  return first === "deleted" && then === "created" ? "updated" : then;
}
