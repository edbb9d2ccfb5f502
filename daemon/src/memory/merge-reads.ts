import type { MemoryRecord } from "./memory.js";

/**
 * What a machine's reads of a memory changed: how often and when it was recalled there. These
 * are that machine's own counts, not a change to the memory: they neither make two versions
 * differ (hub/conflict.ts) nor overwrite the counts of the machine a version arrives at.
 */
export const READ_FIELDS = ["accessCount", "lastAccessedAt"] as const;

/** A version from elsewhere, with this machine's reads of the memory kept where they are more or newer. */
export function mergeReads(incoming: MemoryRecord, local: MemoryRecord | undefined): MemoryRecord {
  if (!local) return incoming;
  const lastAccessedAt = Math.max(incoming.lastAccessedAt ?? -Infinity, local.lastAccessedAt ?? -Infinity);
  return {
    ...incoming,
    accessCount: Math.max(incoming.accessCount, local.accessCount),
    lastAccessedAt: Number.isFinite(lastAccessedAt) ? lastAccessedAt : null,
  };
}
