import type { MemoryRecord } from "../../memory/memory.js";

/** Read-only summaries of the store for Stats, the ledger and the viewer's charts; nothing here writes. */
export interface StoreReports {
  stats(project?: string): StoreStats;
  /** Lifecycle counts for the ledger (see LedgerCounts). */
  ledger(project?: string): LedgerCounts;
  /**
   * A project's entity graph: its `limit` most recent active memories and the entities that link
   * two or more of them (an entity one memory names links nothing).
   */
  projectGraph(project: string, limit: number): ProjectGraph;
  /**
   * Recorded changes since `since` (ms), counted per UTC day (YYYY-MM-DD) and action; archiving
   * by consolidation counts as "consolidated". Days without changes are left out.
   */
  eventsPerDay(since: number, project?: string): { day: string; action: string; count: number }[];
}

export interface StoreStats {
  total: number;
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  byProject: Record<string, number>;
  databaseBytes: number;
  schemaVersion: number;
}

export interface LedgerCounts {
  active: number;
  staged: number;
  /** Memories reinforced at least once. */
  reinforced: number;
  /** Inferred memories that became active (corroborated or confirmed). */
  promoted: number;
  episodes: number;
  archived: number;
  superseded: number;
  consolidated: number;
  expired: number;
  decayed: number;
}

/** A project's memories and the entities that link them (see StoreReports.projectGraph). */
export interface ProjectGraph {
  memories: Pick<MemoryRecord, "id" | "content" | "kind">[];
  entities: { key: string; type: string }[];
  links: { memoryId: string; entityKey: string }[];
}
