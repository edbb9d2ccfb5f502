import { restoreMemory } from "../memory/corrections.js";
import type { MemoryRecord } from "../memory/memory.js";
import { validateId } from "../memory/validate.js";
import { redact } from "../redact/redact-secrets.js";
import type { MemoryRecords } from "../store/store.js";

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

/** Archives a memory with its "archived" history entry, in one transaction: for the API, the vault, maintenance and dedup. */
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

/** A person archives a memory (their reason redacted); asked twice, the first reason stays. */
export function archiveOnRequest(store: Pick<MemoryRecords, "modify">, rawId: string, rawReason: string, at: number): MemoryRecord {
  return archiveMemory(store, validateId(rawId), { at, reason: redact(rawReason.trim()), keepArchived: true });
}

/** A person said an archived memory still holds: it is active again; the history keeps the status and reason it replaced. */
export function restoreArchived(store: Pick<MemoryRecords, "modify">, rawId: string, at: number): MemoryRecord {
  return store.modify(
    validateId(rawId),
    (current) => restoreMemory(current, at),
    (current) => ({ at, action: "updated", sessionId: "", detail: JSON.stringify({ by: "a person", changed: ["status"], replaced: { status: current.status, archiveReason: current.archiveReason } }) }),
  );
}
