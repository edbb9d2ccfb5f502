import type Database from "better-sqlite3";
import { commitUnflushed } from "./unflushed-commit.js";
import type { VaultFileRecord, VaultJob, VaultJobResult, VaultStore } from "../vault-store.js";
import { type StatementCache, statementCache } from "./statement-cache.js";

/** The vault's outbox and file records (migration 11), on the store's connection. */
export class SqliteVaultStore implements VaultStore {
  private readonly sql: StatementCache;

  constructor(private readonly db: Database.Database) {
    this.sql = statementCache(db);
  }

  configure(dir: string | null): number {
    return this.db
      .transaction(() => {
        const state = this.sql("SELECT enabled, dir FROM vault_state WHERE id = 1").get() as { enabled: number; dir: string };
        if (dir === null) {
          this.sql("UPDATE vault_state SET enabled = 0 WHERE id = 1").run();
          this.sql("DELETE FROM vault_outbox").run();
          return 0;
        }
        this.sql("UPDATE vault_state SET enabled = 1, dir = ? WHERE id = 1").run(dir);
        if (state.enabled === 1 && state.dir === dir) return 0;
        // Another directory (or none before): what the records say was written is not there.
        this.sql("DELETE FROM vault_files").run();
        return this.sql("INSERT OR REPLACE INTO vault_outbox (memory_id, token) SELECT id, random() % 4503599627370496 FROM memories").run().changes;
      })
      .immediate();
  }

  due(limit: number, after = ""): VaultJob[] {
    const rows = this.sql("SELECT memory_id, token FROM vault_outbox WHERE memory_id > ? ORDER BY memory_id LIMIT ?").all(after, limit) as { memory_id: string; token: number }[];
    return rows.map((row) => ({ memoryId: row.memory_id, token: row.token }));
  }

  /**
   * Committed without waiting for the disk: a settle lost in a power cut leaves its jobs queued,
   * and writing their files again finds them as they should be, so only the time is lost.
   */
  settle(results: readonly VaultJobResult[]): void {
    if (results.length === 0) return;
    commitUnflushed(this.db, () => {
      for (const { job, file } of results) {
        if (file) this.putFiles([file]);
        else this.forgetFile(job.memoryId);
        this.sql("DELETE FROM vault_outbox WHERE memory_id = ? AND token = ?").run(job.memoryId, job.token);
      }
    });
  }

  pending(): number {
    return (this.sql("SELECT count(*) AS n FROM vault_outbox").get() as { n: number }).n;
  }

  queue(memoryId: string): void {
    this.sql("INSERT OR REPLACE INTO vault_outbox (memory_id, token) VALUES (?, random() % 4503599627370496)").run(memoryId);
  }

  files(): VaultFileRecord[] {
    return (this.sql("SELECT memory_id, path, hash FROM vault_files ORDER BY path").all() as unknown[]).map((row) => toRecord(row) as VaultFileRecord);
  }

  fileOf(memoryId: string): VaultFileRecord | undefined {
    return toRecord(this.sql("SELECT memory_id, path, hash FROM vault_files WHERE memory_id = ?").get(memoryId));
  }

  fileAt(path: string): VaultFileRecord | undefined {
    return toRecord(this.sql("SELECT memory_id, path, hash FROM vault_files WHERE path = ?").get(path));
  }

  putFiles(records: readonly VaultFileRecord[]): void {
    this.db.transaction(() => {
      for (const record of records) {
        // A path is one memory's: a record left at it by a memory since moved goes.
        this.sql("DELETE FROM vault_files WHERE path = ? AND memory_id != ?").run(record.path, record.memoryId);
        this.sql("INSERT OR REPLACE INTO vault_files (memory_id, path, hash) VALUES (?, ?, ?)").run(record.memoryId, record.path, record.hash);
      }
    })();
  }

  forgetFile(memoryId: string): void {
    this.sql("DELETE FROM vault_files WHERE memory_id = ?").run(memoryId);
  }

  fileCount(): number {
    return (this.sql("SELECT count(*) AS n FROM vault_files").get() as { n: number }).n;
  }
}

function toRecord(row: unknown): VaultFileRecord | undefined {
  if (row === undefined) return undefined;
  const r = row as { memory_id: string; path: string; hash: string };
  return { memoryId: r.memory_id, path: r.path, hash: r.hash };
}
