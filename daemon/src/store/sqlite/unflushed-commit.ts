import type Database from "better-sqlite3";

/**
 * Runs `work` as one transaction committed without waiting for the disk (synchronous = NORMAL
 * for it alone; the connection is FULL otherwise). Only for work that may be lost in a power cut
 * because it is redone as it was: a settle leaves its jobs queued, a pulled page leaves its
 * cursor behind it. WAL keeps the database consistent either way, and the next FULL commit (a
 * Save's) flushes this one with it.
 */
export function commitUnflushed<T>(db: Database.Database, work: () => T, mode: "deferred" | "immediate" = "deferred"): T {
  db.pragma("synchronous = NORMAL");
  try {
    const transaction = db.transaction(work);
    return mode === "immediate" ? transaction.immediate() : transaction();
  } finally {
    db.pragma("synchronous = FULL");
  }
}
