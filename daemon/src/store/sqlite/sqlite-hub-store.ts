import type Database from "better-sqlite3";
import type { MemoryEvent, MemoryRecord } from "../../memory/memory.js";
import { mergeReads } from "../../memory/merge-reads.js";
import type { DueEvent, DuePush, HubIdentity, HubLink, HubNotice, HubStore, PulledVersion, SettledPush, StreamCursor } from "../hub-store.js";
import { statementCache, type StatementCache } from "./statement-cache.js";
import { commitUnflushed } from "./unflushed-commit.js";

/** How the hub store writes memories and reads them, through the store that owns the connection (its indexes follow every write). */
export interface HubStoreWrites {
  get(id: string): MemoryRecord | undefined;
  importMany(memories: readonly MemoryRecord[]): unknown;
}

interface StateRow {
  enabled: number;
  url: string;
  machine_id: string;
  memory_txid: string;
  memory_seq: number;
  event_txid: string;
  event_seq: number;
  generation: number;
  hub_id: string;
  hub_epoch: number;
  notice: string;
  notice_at: number | null;
}

interface EventRow {
  id: number;
  memory_id: string;
  at: number;
  action: MemoryEvent["action"];
  session_id: string;
  detail: string;
}

/** The hub's outbox, versions and cursors (migrations 12 and 13), on the store's connection. */
export class SqliteHubStore implements HubStore {
  private readonly sql: StatementCache;
  private machine: string | undefined;

  constructor(private readonly db: Database.Database, private readonly writes: HubStoreWrites) {
    this.sql = statementCache(db);
  }

  /** Made by migration 12 and never changed, so read once. */
  machineId(): string {
    this.machine ??= this.state().machine_id;
    return this.machine;
  }

  link(): HubLink | null {
    const state = this.state();
    if (state.enabled !== 1) return null;
    return {
      url: state.url,
      memoryCursor: { txid: state.memory_txid, seq: state.memory_seq },
      eventCursor: { txid: state.event_txid, seq: state.event_seq },
      generation: state.generation,
      hubId: state.hub_id,
      epoch: state.hub_epoch,
    };
  }

  configure(url: string | null): number {
    return this.db
      .transaction(() => {
        const state = this.state();
        if (url === null) {
          this.sql("UPDATE hub_state SET enabled = 0 WHERE id = 1").run();
          this.clear();
          return 0;
        }
        if (state.enabled === 1 && sameHub(state.url, url)) {
          // The same hub as the same person (a new password, say): nothing to push or pull again.
          this.sql("UPDATE hub_state SET url = ? WHERE id = 1").run(url);
          return 0;
        }
        this.sql("UPDATE hub_state SET enabled = 1, url = ?, hub_id = '', hub_epoch = 0 WHERE id = 1").run(url);
        return this.queueEverything();
      })
      .immediate();
  }

  adopt(identity: HubIdentity): void {
    this.sql("UPDATE hub_state SET hub_id = ?, hub_epoch = ? WHERE id = 1 AND hub_id = ''").run(identity.hubId, identity.epoch);
  }

  refill(identity: HubIdentity, notice: HubNotice): number {
    return this.db
      .transaction(() => {
        this.sql("UPDATE hub_state SET hub_id = ?, hub_epoch = ?, notice = ?, notice_at = ? WHERE id = 1").run(identity.hubId, identity.epoch, notice.text, notice.at);
        return this.queueEverything();
      })
      .immediate();
  }

  requeue(memoryIds: readonly string[], eventIds: readonly number[], notice: HubNotice): void {
    this.db
      .transaction(() => {
        for (const id of memoryIds) {
          // What the hub lost is pushed as new: the version it acknowledged is gone.
          this.sql("DELETE FROM hub_rows WHERE memory_id = ?").run(id);
          this.sql("INSERT OR REPLACE INTO hub_outbox (memory_id, token) VALUES (?, random() % 4503599627370496)").run(id);
        }
        for (const id of eventIds) this.sql("INSERT OR IGNORE INTO hub_event_outbox (event_id) VALUES (?)").run(id);
        this.notify(notice);
      })
      .immediate();
  }

  notify(notice: HubNotice): void {
    this.sql("UPDATE hub_state SET notice = ?, notice_at = ? WHERE id = 1").run(notice.text, notice.at);
  }

  notice(): HubNotice | null {
    const state = this.state();
    return state.notice_at === null ? null : { text: state.notice, at: state.notice_at };
  }

  acknowledgedMemories(afterId: string, limit: number): { id: string; seq: number }[] {
    return this.sql(
      `SELECT r.memory_id AS id, r.seq FROM hub_rows r JOIN memories m ON m.id = r.memory_id
       WHERE r.memory_id > ? AND m.author = '' AND NOT EXISTS (SELECT 1 FROM hub_outbox o WHERE o.memory_id = r.memory_id)
       ORDER BY r.memory_id LIMIT ?`,
    ).all(afterId, limit) as { id: string; seq: number }[];
  }

  acknowledgedEvents(afterId: number, limit: number): DueEvent[] {
    const rows = this.sql(
      `SELECT e.id, e.memory_id, e.at, e.action, e.session_id, e.detail FROM memory_events e
       JOIN memories m ON m.id = e.memory_id JOIN hub_rows r ON r.memory_id = e.memory_id
       WHERE e.id > ? AND e.origin = '' AND m.author = '' AND NOT EXISTS (SELECT 1 FROM hub_event_outbox o WHERE o.event_id = e.id)
       ORDER BY e.id LIMIT ?`,
    ).all(afterId, limit) as EventRow[];
    return rows.map((row) => this.dueEvent(row));
  }

  duePushes(limit: number): DuePush[] {
    const rows = this.sql(
      "SELECT o.memory_id, o.token, coalesce(r.seq, 0) AS base FROM hub_outbox o LEFT JOIN hub_rows r ON r.memory_id = o.memory_id ORDER BY o.memory_id LIMIT ?",
    ).all(limit) as { memory_id: string; token: number; base: number }[];
    return rows.map((row) => ({ memoryId: row.memory_id, token: row.token, baseSeq: row.base, record: this.writes.get(row.memory_id) }));
  }

  dueEvents(limit: number): DueEvent[] {
    const rows = this.sql(
      "SELECT e.id, e.memory_id, e.at, e.action, e.session_id, e.detail FROM hub_event_outbox o JOIN memory_events e ON e.id = o.event_id ORDER BY o.event_id LIMIT ?",
    ).all(limit) as EventRow[];
    return rows.map((row) => this.dueEvent(row));
  }

  private dueEvent(row: EventRow): DueEvent {
    return {
      eventId: row.id,
      key: `${this.machineId()}:${row.id}`,
      event: { memoryId: row.memory_id, at: row.at, action: row.action, sessionId: row.session_id, detail: row.detail },
    };
  }

  /** Committed without waiting for the disk: a settle lost in a power cut is pushed again and found unchanged. */
  settlePushes(settled: readonly SettledPush[]): void {
    if (settled.length === 0) return;
    commitUnflushed(this.db, () => {
      const winners: MemoryRecord[] = [];
      for (const push of settled) {
        if (push.seq !== null) this.sql("INSERT OR REPLACE INTO hub_rows (memory_id, seq) VALUES (?, ?)").run(push.memoryId, push.seq);
        const dropped = this.sql("DELETE FROM hub_outbox WHERE memory_id = ? AND token = ?").run(push.memoryId, push.token).changes;
        // A winner from elsewhere replaces this machine's version only if nothing changed here since the push.
        if (push.winner && dropped > 0) winners.push(mergeReads(push.winner, this.writes.get(push.memoryId)));
      }
      this.applying(() => this.writes.importMany(winners));
    });
  }

  settleEvents(eventIds: readonly number[]): void {
    if (eventIds.length === 0) return;
    commitUnflushed(this.db, () => {
      for (const id of eventIds) this.sql("DELETE FROM hub_event_outbox WHERE event_id = ?").run(id);
    });
  }

  /** Committed without waiting for the disk: a page lost in a power cut leaves the cursor before it, and is pulled again. */
  applyMemories(pulled: readonly PulledVersion[], cursor: StreamCursor): number {
    return commitUnflushed(
      this.db,
      () => {
        const fresh: MemoryRecord[] = [];
        const annotated: MemoryRecord[] = [];
        for (const { record, seq } of pulled) {
          const known = this.sql("SELECT seq FROM hub_rows WHERE memory_id = ?").get(record.id) as { seq: number } | undefined;
          if (known && known.seq >= seq) {
            // A version this machine has, read again: who wrote it may be news (read again after an upgrade).
            const local = this.writes.get(record.id);
            if (local && !sameAuthorship(local, record)) annotated.push({ ...local, author: record.author, editedBy: record.editedBy, viaTeam: record.viaTeam });
            continue;
          }
          if (this.sql("SELECT 1 FROM hub_outbox WHERE memory_id = ?").get(record.id) !== undefined) continue;
          this.sql("INSERT OR REPLACE INTO hub_rows (memory_id, seq) VALUES (?, ?)").run(record.id, seq);
          fresh.push(mergeReads(record, this.writes.get(record.id)));
        }
        this.applying(() => this.writes.importMany([...fresh, ...annotated]));
        this.sql("UPDATE hub_state SET memory_txid = ?, memory_seq = ? WHERE id = 1").run(cursor.txid, cursor.seq);
        return fresh.length;
      },
      "immediate",
    );
  }

  applyEvents(pulled: readonly { key: string; owner: string; event: MemoryEvent }[], cursor: StreamCursor): number {
    return commitUnflushed(
      this.db,
      () => {
        let added = 0;
        this.applying(() => {
          for (const { key, owner, event } of pulled) {
            // Before migration 13 an event's origin was its bare key: one pulled then, on the same memory, is this one.
            const legacy = this.sql("SELECT 1 FROM memory_events WHERE origin = ? AND memory_id = ?").get(key, event.memoryId);
            if (legacy !== undefined) continue;
            added += this.sql(
              "INSERT OR IGNORE INTO memory_events (memory_id, at, action, session_id, detail, origin) VALUES (?, ?, ?, ?, ?, ?)",
            ).run(event.memoryId, event.at, event.action, event.sessionId, event.detail, `${owner}/${key}`).changes;
          }
        });
        this.sql("UPDATE hub_state SET event_txid = ?, event_seq = ? WHERE id = 1").run(cursor.txid, cursor.seq);
        return added;
      },
      "immediate",
    );
  }

  restartStream(generation: number): void {
    this.sql("UPDATE hub_state SET memory_txid = '0', memory_seq = 0, event_txid = '0', event_seq = 0, generation = ? WHERE id = 1").run(generation);
  }

  pending(): { memories: number; events: number } {
    const memories = (this.sql("SELECT count(*) AS n FROM hub_outbox").get() as { n: number }).n;
    const events = (this.sql("SELECT count(*) AS n FROM hub_event_outbox").get() as { n: number }).n;
    return { memories, events };
  }

  hasPending(): boolean {
    return (this.sql("SELECT EXISTS (SELECT 1 FROM hub_outbox) OR EXISTS (SELECT 1 FROM hub_event_outbox) AS yes").get() as { yes: number }).yes === 1;
  }

  /** Runs writes that came from the hub: within the caller's transaction, with the outbox's triggers quiet. */
  private applying(write: () => void): void {
    this.sql("UPDATE hub_state SET applying = 1 WHERE id = 1").run();
    try {
      write();
    } finally {
      this.sql("UPDATE hub_state SET applying = 0 WHERE id = 1").run();
    }
  }

  /** Forgets everything about the hub but this machine's id. */
  private clear(): void {
    this.sql("DELETE FROM hub_outbox").run();
    this.sql("DELETE FROM hub_event_outbox").run();
    this.sql("DELETE FROM hub_rows").run();
  }

  /**
   * Forgets what the hub held, reads its stream from the start, and queues every memory and
   * event of this person's (not the memories others shared: the hub would record them as this
   * person's), within the caller's transaction; returns how many memories were queued.
   */
  private queueEverything(): number {
    this.clear();
    this.sql("UPDATE hub_state SET memory_txid = '0', memory_seq = 0, event_txid = '0', event_seq = 0, generation = 0 WHERE id = 1").run();
    this.sql("INSERT INTO hub_event_outbox (event_id) SELECT id FROM memory_events WHERE origin = ''").run();
    return this.sql("INSERT OR REPLACE INTO hub_outbox (memory_id, token) SELECT id, random() % 4503599627370496 FROM memories WHERE author = ''").run().changes;
  }

  private state(): StateRow {
    return this.sql(
      "SELECT enabled, url, machine_id, memory_txid, memory_seq, event_txid, event_seq, generation, hub_id, hub_epoch, notice, notice_at FROM hub_state WHERE id = 1",
    ).get() as StateRow;
  }
}

function sameAuthorship(a: MemoryRecord, b: MemoryRecord): boolean {
  return a.author === b.author && a.editedBy === b.editedBy && a.viaTeam === b.viaTeam;
}

/** Two URLs of the same hub as the same person: equal but for the password. */
function sameHub(a: string, b: string): boolean {
  const identity = (url: string) => {
    try {
      const parsed = new URL(url);
      parsed.password = "";
      return parsed.toString();
    } catch {
      return url;
    }
  };
  return identity(a) === identity(b);
}
