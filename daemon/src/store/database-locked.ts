/**
 * True for SQLite's refusal to write because another connection holds the write lock (the
 * sqlite3 shell in a transaction, a backup tool). The database runs with busy_timeout 0, so
 * the refusal comes at once and its transaction did nothing: the write may be tried again
 * once the lock is gone, and a write nobody waits for (an access count) may be skipped.
 */
export function isDatabaseLocked(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/**
 * Runs a write nobody waits for (an access count, a record of what a session was shown) and
 * skips it while another process holds the write lock: a read must not wait for, or fail on,
 * the lock for the sake of its bookkeeping. Returns whether the write ran.
 */
export function unlessLocked(write: () => void): boolean {
  try {
    write();
    return true;
  } catch (error) {
    if (isDatabaseLocked(error)) return false;
    throw error;
  }
}
