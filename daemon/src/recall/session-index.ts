/**
 * The order of memories within their sessions, in memory: for every session of a project, its
 * rows by creation time (ties by seq, the order they were stored in). A conversation's turns or
 * a coding session's notes are its memories in that order, and a memory's neighbours there are
 * its context: the question a short answer replies to, the problem a fix follows.
 */
export class SessionIndex {
  /** Rows of each session, oldest first. */
  private readonly sessions = new Map<string, { seq: number; createdAt: number }[]>();
  private readonly placed = new Map<number, { key: string; createdAt: number }>();

  /** Places a row in its session (moving it when its session or time changed); an empty session id places it nowhere. */
  set(seq: number, project: string, sessionId: string, createdAt: number): void {
    const key = `${project}\u0000${sessionId}`;
    // Most updates (an access count, a promotion) leave the row where it is: nothing to move.
    const place = this.placed.get(seq);
    if (place !== undefined && place.key === key && place.createdAt === createdAt) return;
    this.delete(seq);
    if (sessionId === "") return;
    let rows = this.sessions.get(key);
    if (!rows) {
      rows = [];
      this.sessions.set(key, rows);
    }
    const at = insertionPoint(rows, createdAt, seq);
    // Rows mostly arrive in time order, so this appends.
    rows.splice(at, 0, { seq, createdAt });
    this.placed.set(seq, { key, createdAt });
  }

  delete(seq: number): void {
    const place = this.placed.get(seq);
    if (place === undefined) return;
    this.placed.delete(seq);
    const rows = this.sessions.get(place.key) as { seq: number; createdAt: number }[];
    rows.splice(insertionPoint(rows, place.createdAt, seq), 1);
    if (rows.length === 0) this.sessions.delete(place.key);
  }

  /**
   * The rows up to `reach` places before and after `seq` in its session that `accept` lets
   * through (the ones before it first, nearest first), skipping those it turns down; none for a
   * row in no session.
   */
  neighbours(seq: number, reach: number, accept: (seq: number) => boolean): number[] {
    const place = this.placed.get(seq);
    if (place === undefined) return [];
    const rows = this.sessions.get(place.key) as { seq: number; createdAt: number }[];
    const row = insertionPoint(rows, place.createdAt, seq);
    const side = (step: number) => {
      const found: number[] = [];
      for (let i = row + step; i >= 0 && i < rows.length && found.length < reach; i += step) {
        const other = (rows[i] as { seq: number }).seq;
        if (accept(other)) found.push(other);
      }
      return found;
    };
    return [...side(-1), ...side(1)];
  }
}

/** Where a row goes in a session's rows, kept in (createdAt, seq) order. */
function insertionPoint(rows: readonly { seq: number; createdAt: number }[], createdAt: number, seq: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const row = rows[mid] as { seq: number; createdAt: number };
    if (row.createdAt < createdAt || (row.createdAt === createdAt && row.seq < seq)) low = mid + 1;
    else high = mid;
  }
  return low;
}
