import type Database from "better-sqlite3";
import type { SessionInjections } from "../ports/session-injections.js";
import { type StatementCache, statementCache } from "./statement-cache.js";
import { commitUnflushed } from "./unflushed-commit.js";

/** What sessions were given (the session_injections table), on the store's connection. */
export class SqliteSessionInjections implements SessionInjections {
  private readonly sql: StatementCache;

  constructor(private readonly db: Database.Database) {
    this.sql = statementCache(db);
  }

  of(sessionId: string): Set<string> {
    const rows = this.sql("SELECT memory_id FROM session_injections WHERE session_id = ?").all(sessionId) as { memory_id: string }[];
    return new Set(rows.map((r) => r.memory_id));
  }

  record(sessionId: string, memoryIds: readonly string[], at: number): void {
    const insert = this.sql(
      `INSERT INTO session_injections (session_id, memory_id, at) VALUES (?, ?, ?)
       ON CONFLICT (session_id, memory_id) DO UPDATE SET at = excluded.at`,
    );
    // Not flushed to disk before the prompt's hook is answered (an fsync per prompt was the
    // largest single cost of the hook route): what a power cut loses is only that these
    // pointers may be shown again in the session.
    commitUnflushed(this.db, () => {
      for (const id of memoryIds) insert.run(sessionId, id, at);
    });
  }

  forget(sessionId: string): number {
    return this.sql("DELETE FROM session_injections WHERE session_id = ?").run(sessionId).changes;
  }

  prune(before: number): number {
    // A whole session goes at once: one still in use keeps even its oldest records. Both
    // subqueries are ranges of the `at` index, so a table of mostly recent rows costs little.
    return this
      .sql(
        `DELETE FROM session_injections
         WHERE session_id IN (SELECT session_id FROM session_injections WHERE at < @before)
           AND session_id NOT IN (SELECT session_id FROM session_injections WHERE at >= @before)`,
      )
      .run({ before }).changes;
  }
}
