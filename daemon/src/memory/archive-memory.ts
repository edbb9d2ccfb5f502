import type { MemoryRecords } from "../store/store.js";
import type { MemoryRecord } from "./memory.js";

/** Why and when a memory is taken out of use, and what replaced it, if anything. */
export interface Archiving {
  at: number;
  /** The record's archive_reason. */
  reason: string;
  /** The history entry's detail; the reason when not given. */
  detail?: string;
  /** The memory that holds what this one said (a merge, a consolidation). */
  supersededBy?: string;
  /** A memory already archived keeps its reason (an archive asked for twice); the entry is still recorded. */
  keepArchived?: boolean;
}

/**
 * Archives a memory and records the "archived" history entry in the same transaction: the one
 * place where what archiving changes is written, for the API, the vault, maintenance and dedup.
 */
export function archiveMemory(store: Pick<MemoryRecords, "modify">, id: string, archiving: Archiving): MemoryRecord {
  const { at, reason, supersededBy, keepArchived = false } = archiving;
  return store.modify(
    id,
    (current) =>
      keepArchived && current.status === "archived"
        ? current
        : { ...current, status: "archived", archiveReason: reason, ...(supersededBy === undefined ? {} : { supersededBy }), updatedAt: at },
    () => ({ at, action: "archived", sessionId: "", detail: archiving.detail ?? reason }),
  );
}
