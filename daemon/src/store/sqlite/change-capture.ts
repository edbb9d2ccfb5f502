import type Database from "better-sqlite3";
import { coalesceChanges } from "../../changes/coalesce-changes.js";
import type { ChangeFeed, ChangeKind, ChangeListener, RecordChange, RecordKind, WorkQueue } from "../ports/change-feed.js";
import { MEMORY_CHANGED } from "./migrations.js";

/**
 * A table whose rows the change feed announces. Each expression is SQL over the changed row,
 * written `${row}.column`, where `row` is `new` (or `old` for a deletion).
 *
 * To announce a new kind of record: add its name to RecordKind (store/ports/change-feed.ts) and
 * to RecordKind in proto/memd/v1/change_service.proto (with the next free number; the service
 * maps one to the other in services/change-service.ts), then add its table here. Nothing else:
 * every write to the table, by any code path on this connection, is announced after it commits.
 */
interface ChangeSource {
  kind: RecordKind;
  table: string;
  id: (row: string) => string;
  memoryId: (row: string) => string;
  project: (row: string) => string;
  /** When an update is worth announcing, over `old` and `new`; every update when absent. */
  updatedWhen?: string;
}

const SOURCES: readonly ChangeSource[] = [
  {
    kind: "memory",
    table: "memories",
    id: (row) => `${row}.id`,
    memoryId: (row) => `${row}.id`,
    project: (row) => `${row}.project`,
    // What a memory says and where it stands, and who wrote it: not reads (access counts) or the content hash.
    updatedWhen: `${MEMORY_CHANGED} OR old.author IS NOT new.author OR old.edited_by IS NOT new.edited_by OR old.via_team IS NOT new.via_team`,
  },
  {
    kind: "memory_event",
    table: "memory_events",
    id: (row) => `CAST(${row}.id AS TEXT)`,
    memoryId: (row) => `${row}.memory_id`,
    project: (row) => `COALESCE((SELECT project FROM main.memories WHERE id = ${row}.memory_id), '')`,
  },
  {
    kind: "injection",
    table: "injections",
    id: (row) => `CAST(${row}.id AS TEXT)`,
    memoryId: () => "''",
    project: (row) => `${row}.project`,
  },
];

/** The tables each work queue is kept in (see migrations 2, 11 and 12). */
const QUEUE_TABLES: Readonly<Record<WorkQueue, readonly string[]>> = {
  embedding: ["embedding_jobs"],
  vault: ["vault_outbox"],
  hub: ["hub_outbox", "hub_event_outbox"],
};

/** The connection's own log of changes not yet announced: a temporary table, written in the writer's transaction. */
const LOG = "temp.memd_changes";
/** The work queues filled since the last announcement, likewise. */
const QUEUED = "temp.memd_queued";
/** Called by the triggers, so that the log is read once the transaction that wrote it is over. */
const WAKE = "memd_changes_written";

/**
 * The change feed of one SQLite connection. Temporary triggers (this connection's own, never
 * stored in the database) append each change to a temporary table in the same transaction as
 * the write, so that a rollback, whole or to a savepoint, takes its changes with it; they also
 * call back into JavaScript, which reads and empties the table in a microtask, once the
 * synchronous transaction has committed, and tells the listeners.
 */
export class ChangeCapture implements ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  private readonly wakes = new Map<WorkQueue, Set<() => void>>();
  private readonly read: Database.Statement;
  private readonly clear: Database.Statement;
  private readonly readQueued: Database.Statement;
  private readonly clearQueued: Database.Statement;
  private scheduled = false;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly onListenerError: (error: unknown) => void,
  ) {
    db.function(WAKE, { deterministic: false }, () => {
      this.schedule();
      return null;
    });
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${LOG.slice("temp.".length)} (kind TEXT NOT NULL, id TEXT NOT NULL, change TEXT NOT NULL, memory_id TEXT NOT NULL, project TEXT NOT NULL)`);
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${QUEUED.slice("temp.".length)} (queue TEXT PRIMARY KEY) WITHOUT ROWID`);
    for (const source of SOURCES) db.exec(triggersOf(source));
    for (const [queue, tables] of Object.entries(QUEUE_TABLES)) for (const table of tables) db.exec(queueTriggerOf(queue, table));
    this.read = db.prepare(`SELECT rowid, kind, id, change, memory_id AS memoryId, project FROM ${LOG} ORDER BY rowid`);
    this.clear = db.prepare(`DELETE FROM ${LOG} WHERE rowid <= ?`);
    this.readQueued = db.prepare(`SELECT queue FROM ${QUEUED}`).pluck();
    this.clearQueued = db.prepare(`DELETE FROM ${QUEUED}`);
  }

  subscribe(listener: ChangeListener): () => void {
    // Wrapped, so that the same function subscribed twice is told twice and unsubscribed once.
    const own: ChangeListener = (changes) => listener(changes);
    this.listeners.add(own);
    return () => this.listeners.delete(own);
  }

  onQueued(queue: WorkQueue, wake: () => void): () => void {
    const own = () => wake();
    const wakes = this.wakes.get(queue) ?? new Set();
    this.wakes.set(queue, wakes.add(own));
    return () => wakes.delete(own);
  }

  /** Stops announcing; what is still in the log is dropped with the connection. */
  close(): void {
    this.closed = true;
    this.listeners.clear();
    this.wakes.clear();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.announce());
  }

  private announce(): void {
    this.scheduled = false;
    if (this.closed) return;
    // better-sqlite3's transactions are synchronous, so none is open in a microtask, unless one
    // was begun by hand; its changes are read once it ends.
    if (this.db.inTransaction) {
      this.scheduled = true;
      setImmediate(() => this.announce());
      return;
    }
    const queued = this.readQueued.all() as WorkQueue[];
    if (queued.length > 0) this.clearQueued.run();
    const rows = this.read.all() as (RecordChange & { rowid: number })[];
    const last = rows.at(-1);
    if (last) this.clear.run(last.rowid);
    const changes = coalesceChanges(rows.map(({ kind, id, change, memoryId, project }) => ({ kind, id, change, memoryId, project })));
    if (changes.length > 0) for (const listener of [...this.listeners]) this.tell(() => listener(changes));
    for (const queue of queued) for (const wake of [...(this.wakes.get(queue) ?? [])]) this.tell(wake);
  }

  /** A listener that throws is reported; the others are still told. */
  private tell(listener: () => void): void {
    try {
      listener();
    } catch (error) {
      this.onListenerError(error);
    }
  }
}

/** The three temporary triggers that log a source's inserts, updates and deletions. */
function triggersOf(source: ChangeSource): string {
  const log = (change: ChangeKind, row: string) =>
    `INSERT INTO ${LOG} (kind, id, change, memory_id, project) VALUES ('${source.kind}', ${source.id(row)}, '${change}', ${source.memoryId(row)}, ${source.project(row)}); SELECT ${WAKE}();`;
  const name = `memd_changes_${source.table}`;
  return `
    CREATE TEMP TRIGGER IF NOT EXISTS ${name}_insert AFTER INSERT ON main.${source.table} BEGIN ${log("created", "new")} END;
    CREATE TEMP TRIGGER IF NOT EXISTS ${name}_update AFTER UPDATE ON main.${source.table}${source.updatedWhen ? ` WHEN ${source.updatedWhen}` : ""} BEGIN ${log("updated", "new")} END;
    CREATE TEMP TRIGGER IF NOT EXISTS ${name}_delete AFTER DELETE ON main.${source.table} BEGIN ${log("deleted", "old")} END;`;
}

/** The temporary trigger that notes a work queue filled (a row inserted or replaced in one of its tables). */
function queueTriggerOf(queue: string, table: string): string {
  return `CREATE TEMP TRIGGER IF NOT EXISTS memd_queued_${table} AFTER INSERT ON main.${table} BEGIN INSERT OR IGNORE INTO ${QUEUED} (queue) VALUES ('${queue}'); SELECT ${WAKE}(); END;`;
}
