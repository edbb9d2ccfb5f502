import type { MemoryKind, MemoryRecord, MemoryStatus } from "./memory.js";

/** Which memories a list or search may return; the store applies the same rules in SQL. */
export interface MemoryFilter {
  /** Only these projects; undefined means every project. */
  projects?: readonly string[];
  kinds: readonly MemoryKind[];
  statuses: readonly MemoryStatus[];
  sessionId?: string;
  pinnedOnly?: boolean;
  createdAfter?: number;
  createdBefore?: number;
  /** Only memories with a review date. */
  withReviewDate?: boolean;
}

/** What a filter tests of a memory. */
export type MemoryFacets = Pick<MemoryRecord, "project" | "kind" | "status" | "sessionId" | "pinned" | "createdAt" | "reviewAt">;

export function matchesFilter(memory: MemoryFacets, filter: MemoryFilter): boolean {
  return (
    (filter.projects === undefined || filter.projects.includes(memory.project)) &&
    (filter.kinds.length === 0 || filter.kinds.includes(memory.kind)) &&
    (filter.statuses.length === 0 || filter.statuses.includes(memory.status)) &&
    (!filter.sessionId || memory.sessionId === filter.sessionId) &&
    (!filter.pinnedOnly || memory.pinned) &&
    (filter.createdAfter === undefined || memory.createdAt >= filter.createdAfter) &&
    (filter.createdBefore === undefined || memory.createdAt < filter.createdBefore) &&
    (!filter.withReviewDate || memory.reviewAt !== null)
  );
}
