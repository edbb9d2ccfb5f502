import fs from "node:fs";
import path from "node:path";

/** Session files older than this are deleted: Claude Code sessions are rarely resumed after days. */
const MAX_AGE_MS = 3 * 24 * 60 * 60 * 1000;
/** Enough for a long session; the oldest ids are dropped first. */
const MAX_IDS = 500;

/**
 * The memory ids already put into one Claude Code session's context, so that a pointer is not
 * injected twice. Kept by the hook in MEMD_HOME/hooks/sessions/<session_id>.json because the
 * daemon has no per-session record of what it handed out yet.
 */
export interface SessionState {
  injected(): Set<string>;
  /** Adds ids and writes the file (0600). Never throws. */
  record(ids: readonly string[]): void;
  /** Forgets everything: after /clear or compaction the injected text is gone from context. */
  reset(): void;
}

export function sessionStateDir(home: string): string {
  return path.join(home, "hooks", "sessions");
}

export function openSessionState(home: string, sessionId: string): SessionState {
  const dir = sessionStateDir(home);
  // A session id names a file: keep only characters that cannot leave the directory.
  const safeId = sessionId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 128) || "unknown";
  const file = path.join(dir, `${safeId}.json`);
  let ids: string[] | undefined;
  const load = (): string[] => {
    if (ids) return ids;
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
      const list = (parsed as { injected?: unknown }).injected;
      ids = Array.isArray(list) ? list.filter((id): id is string => typeof id === "string") : [];
    } catch {
      ids = [];
    }
    return ids;
  };
  return {
    injected: () => new Set(load()),
    record(newIds) {
      const next = [...new Set([...load(), ...newIds])].slice(-MAX_IDS);
      ids = next;
      try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify({ injected: next }), { mode: 0o600 });
        fs.renameSync(tmp, file);
      } catch {
        // Losing the record only risks a repeated pointer.
      }
    },
    reset() {
      ids = [];
      try {
        fs.rmSync(file, { force: true });
      } catch {
        // A stale record only suppresses a pointer that would have been new.
      }
    },
  };
}

/** Deletes session files not touched for a few days. Never throws. */
export function pruneSessionStates(home: string, now: number): void {
  const dir = sessionStateDir(home);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > MAX_AGE_MS) fs.rmSync(file, { force: true });
    } catch {
      // Raced with another hook; fine.
    }
  }
}
