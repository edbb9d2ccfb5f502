/**
 * The kinds of record the change feed announces. To add one, see store/sqlite/change-capture.ts
 * (its table's source) and proto/memd/v1/change_service.proto (its RecordKind).
 */
export type RecordKind = "memory" | "memory_event";

/** What a committed write did to a record. */
export type ChangeKind = "created" | "updated" | "deleted";

/** One record a committed write changed: which, and how, never what it now holds. */
export interface RecordChange {
  kind: RecordKind;
  /** The record's own id: a memory's id, a history entry's number. */
  id: string;
  change: ChangeKind;
  /** The memory the record belongs to (a memory's own id, a history entry's memory); "" for a record about no single memory. */
  memoryId: string;
  /** That memory's project, or the record's own; "" when it has none. */
  project: string;
}

/** Told what committed writes changed, in the order they were made. */
export type ChangeListener = (changes: readonly RecordChange[]) => void;

/**
 * What the store announces after each committed transaction: the records it created, updated or
 * deleted, whichever code path wrote them (a service, maintenance, the vault watcher, a hub pull).
 * Nothing is announced for a transaction that was rolled back. Listeners are called after the
 * commit, outside the writer's transaction, one batch at a time (transactions committed in the
 * same turn of the event loop share one batch); a listener that throws is reported and the others
 * are still told. Listeners must be quick (wake a worker, queue the batch): one that must wait
 * takes a bounded queue between it and the feed (changes/change-stream.ts), so that it never
 * holds up a write.
 */
export interface ChangeFeed {
  /** Tells `listener` of every batch committed from now on, until the returned function is called. */
  subscribe(listener: ChangeListener): () => void;
}
