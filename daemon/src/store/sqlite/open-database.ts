import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { SchemaTooNewError } from "../../errors.js";
import type { Migration } from "./migrations.js";

export interface OpenDatabaseOptions {
  /** The database file. */
  file: string;
  /** Where copies are taken before a migration runs. */
  backupDir: string;
  migrations: readonly Migration[];
  now: () => number;
}

export interface OpenedDatabase {
  db: Database.Database;
  schemaVersion: number;
  /** The copy taken before migrating, if any migration ran on an existing database. */
  backupFile: string | null;
}

/**
 * Opens (or creates) the database, refuses one written by a newer schema without touching
 * it, copies an existing database aside before migrating it, and applies every pending
 * migration in its own transaction.
 */
export function openDatabase(options: OpenDatabaseOptions): OpenedDatabase {
  const latest = options.migrations.reduce((max, m) => Math.max(max, m.version), 0);
  const existing = fs.existsSync(options.file) ? readSchemaVersion(options.file) : 0;
  if (existing > latest) {
    throw new SchemaTooNewError(
      `${options.file} has schema version ${existing}, but this memd only knows up to ${latest}: ` +
        "upgrade memd (the database was left untouched)",
    );
  }

  const db = new Database(options.file);
  try {
    configure(db);
    const pending = options.migrations
      .filter((m) => m.version > existing)
      .sort((a, b) => a.version - b.version);
    let backupFile: string | null = null;
    if (pending.length > 0 && existing > 0) {
      backupFile = backup(db, options, existing);
    }
    for (const migration of pending) {
      db.transaction(() => {
        migration.up(db);
        db.pragma(`user_version = ${migration.version}`);
      })();
    }
    // From here on a write never waits inside SQLite: busy_timeout would block the event loop,
    // Health and every read included, for as long as another process holds the write lock.
    // Writes that find the lock taken fail at once and are retried between turns of the event
    // loop (server/lock-retry.ts); reads in WAL mode need no lock.
    db.pragma("busy_timeout = 0");
    return { db, schemaVersion: Math.max(existing, latest), backupFile };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Reads the schema version read-only, so a database we must refuse is never modified. */
function readSchemaVersion(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma("user_version", { simple: true }) as number;
  } finally {
    db.close();
  }
}

function configure(db: Database.Database): void {
  db.pragma("journal_mode = WAL");
  // FULL syncs the write-ahead log on every commit: an acknowledged write survives not only
  // kill -9 of the daemon (NORMAL would too) but also power loss and OS crashes, at about
  // one fsync per Save. The benchmark reports what that costs.
  db.pragma("synchronous = FULL");
  // Opening and migrating may wait for another process's write lock: nothing else runs yet.
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  // SQLite's own default page cache (2 MB), where better-sqlite3 builds it with 16 MB of the
  // daemon's RSS: searches rank in the in-memory mirror, and the few rows a request then reads
  // come from the OS's file cache when SQLite's misses them.
  db.pragma("cache_size = -2000");
}

function backup(db: Database.Database, options: OpenDatabaseOptions, version: number): string {
  fs.mkdirSync(options.backupDir, { recursive: true, mode: 0o700 });
  const stamp = new Date(options.now()).toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
  const target = path.join(options.backupDir, `${path.basename(options.file, ".db")}-v${version}-${stamp}.db`);
  // VACUUM INTO writes a consistent, compact copy, WAL contents included.
  db.prepare("VACUUM INTO ?").run(target);
  return target;
}
