/**
 * The kinds of record the change feed announces. To add one, see store/sqlite/change-capture.ts
 * (its table's source) and proto/memd/v1/change_service.proto (its RecordKind).
 */
export type RecordKind = "memory" | "memory_event" | "injection";

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
 * The durable queues of work the database fills in the transaction that makes the work: the
 * embedding jobs, the vault's outbox and the hub's outboxes (memories and history events).
 */
export type WorkQueue = "embedding" | "vault" | "hub";

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
  /**
   * Calls `wake` after each committed transaction that queued work in `queue`, whoever queued it
   * (a trigger on a memory's change, a re-queue, a repair): the worker that drains the queue
   * needs no other call and no polling to learn of new work.
   */
  onQueued(queue: WorkQueue, wake: () => void): () => void;
}
