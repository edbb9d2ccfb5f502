import type { MemoryEvent, MemoryRecord } from "../../memory/memory.js";
import type { MemoryFilter } from "../../memory/memory-filter.js";

/**
 * The memories themselves and their history: writes, reads by id, sequence number and filter,
 * import and export, and the one deletion path. Everything that changes a memory goes through
 * here, in a transaction with the event that records it.
 */
export interface MemoryRecords {
  /**
   * Stores a new memory durably; throws ConflictError if the id exists. Returns the memory's
   * sequence number, the key that derived indexes (vectors) use. While vectors are on, the
   * memory also waits for dedup by meaning (see takeDedupPending); imports never do.
   */
  insert(memory: MemoryRecord, event?: NewEvent): number;
  /** Which of these memories were waiting for dedup by meaning; they stop waiting. */
  takeDedupPending(memorySeqs: readonly number[]): number[];
  get(id: string): MemoryRecord | undefined;
  /** The sequence number of a memory id. */
  seqOf(id: string): number | undefined;
  /**
   * Applies `change` to the stored memory atomically, recording `event(current)` in the same
   * transaction when given; throws NotFoundError for an unknown id.
   */
  modify(id: string, change: (current: MemoryRecord) => MemoryRecord, event?: (current: MemoryRecord) => NewEvent): MemoryRecord;
  /** Saves a new claim and marks the old one superseded, in one transaction. */
  supersede(oldId: string, change: (old: MemoryRecord) => { next: MemoryRecord; old: MemoryRecord }, event: NewEvent): { next: MemoryRecord; old: MemoryRecord };
  /** When each memory was last reinforced (saved again, corroborated), for decay; memories never reinforced are absent. */
  lastReinforcements(): Map<string, number>;
  /** When each of these memories was reinforced and by which session, oldest first; memories never reinforced are absent. */
  reinforcements(memoryIds: readonly string[]): Map<string, { sessionId: string; at: number }[]>;
  /** Recorded changes of these memories, oldest first. */
  events(memoryIds: readonly string[]): MemoryEvent[];
  /** Memories matching the filter, newest first, starting after `page.afterId`. */
  list(filter: MemoryFilter, page: PageRequest): MemoryRecord[];
  /** Whole memories by sequence number; unknown ones are absent. */
  memoriesBySeq(memorySeqs: readonly number[]): Map<number, MemoryRecord>;
  /** Memories of any project, kind and status whose normalised content equals this content's, oldest first. */
  withSameContent(content: string): MemoryRecord[];
  /** Records a read through recall: access count and last-accessed time. */
  recordAccess(ids: readonly string[], at: number): void;
  /** Stores memories exactly as given, keyed by id, in one transaction. */
  importMany(memories: readonly MemoryRecord[]): ImportCounts;
  /** Records history events as given (a rebuild from the vault), in one transaction, skipping any already recorded; returns how many were new. */
  importEvents(events: readonly MemoryEvent[]): number;
  /** Every memory, oldest first, read in pages so that no read stays open between pages. */
  exportAll(project?: string): Iterable<MemoryRecord>;
  /**
   * Derives every memory's entity links and content hash again (a changed extractor, a row
   * changed outside the daemon), `limit` memories per step and transaction, in seq order; yields
   * how many each step did. Each step reads where the last left off when it is asked for, so a
   * caller may let other work run between steps.
   */
  relinkInSteps(limit: number): Iterable<number>;
  /** Copies the database to `file`, then deletes every archived memory; returns their sequence numbers. The only deletion path. */
  purgeArchived(backupFile: string): number[];
}

/** An event to record with a write; the store stamps the memory id. */
export type NewEvent = Omit<MemoryEvent, "memoryId">;

export interface PageRequest {
  limit: number;
  /** Continue after this id (ids sort by creation time). */
  afterId?: string;
}

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}
