import type Database from "better-sqlite3";
import type { MemoryFileSyncRecord, MemoryFileSyncs } from "../ports/memory-file-syncs.js";
import { type StatementCache, statementCache } from "./statement-cache.js";

/** MEMORY.md syncs (the memory_file_syncs table), on the store's connection. */
export class SqliteMemoryFileSyncs implements MemoryFileSyncs {
  private readonly sql: StatementCache;

  constructor(db: Database.Database) {
    this.sql = statementCache(db);
  }

  all(): MemoryFileSyncRecord[] {
    const rows = this
      .sql("SELECT project, path, enabled_at, created_file FROM memory_file_syncs ORDER BY project")
      .all() as { project: string; path: string; enabled_at: number; created_file: number }[];
    return rows.map((r) => ({ project: r.project, path: r.path, enabledAt: r.enabled_at, createdFile: r.created_file === 1 }));
  }

  put(sync: MemoryFileSyncRecord): void {
    this
      // An upsert by project: a path another project holds fails the UNIQUE constraint instead of replacing its row.
      .sql(
        `INSERT INTO memory_file_syncs (project, path, enabled_at, created_file) VALUES (?, ?, ?, ?)
         ON CONFLICT (project) DO UPDATE SET path = excluded.path, enabled_at = excluded.enabled_at, created_file = excluded.created_file`,
      )
      .run(sync.project, sync.path, sync.enabledAt, sync.createdFile ? 1 : 0);
  }

  delete(project: string): boolean {
    return this.sql("DELETE FROM memory_file_syncs WHERE project = ?").run(project).changes > 0;
  }
}
