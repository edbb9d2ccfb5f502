/**
 * The order of memories within their sessions, in memory: for every session of a project, its
 * rows by creation time (ties by seq, the order they were stored in). A conversation's turns or
 * a coding session's notes are its memories in that order, and a memory's neighbours there are
 * its context: the question a short answer replies to, the problem a fix follows.
 */
export class SessionIndex {
  /** Each session's number, by project and session id: one string per session, not one per row. */
  private readonly sessionIds = new Map<string, number>();
  /** Rows of each session by its number, oldest first. */
  private readonly sessions: number[][] = [];
  // By seq (dense, as SQLite hands seqs out): the row's session number plus one (0 or absent:
  // none) and its creation time, where a Map of objects cost about 100 bytes a row more.
  private readonly sessionOf: number[] = [];
  private readonly createdAtOf: number[] = [];

  /** Places a row in its session (moving it when its session or time changed); an empty session id places it nowhere. */
  set(seq: number, project: string, sessionId: string, createdAt: number): void {
    const key = `${project}\u0000${sessionId}`;
    const session = sessionId === "" ? undefined : this.sessionIds.get(key);
    // Most updates (an access count, a promotion) leave the row where it is: nothing to move.
    if (session !== undefined && this.sessionOf[seq] === session + 1 && this.createdAtOf[seq] === createdAt) return;
    this.delete(seq);
    if (sessionId === "") return;
    let number = session;
    if (number === undefined) {
      number = this.sessions.length;
      this.sessionIds.set(key, number);
      this.sessions.push([]);
    }
    const rows = this.sessions[number] as number[];
    this.createdAtOf[seq] = createdAt;
    // Rows mostly arrive in time order, so this appends.
    rows.splice(this.insertionPoint(rows, createdAt, seq), 0, seq);
    this.sessionOf[seq] = number + 1;
  }

  delete(seq: number): void {
    const rows = this.rowsOf(seq);
    if (rows === undefined) return;
    rows.splice(this.insertionPoint(rows, this.createdAtOf[seq] as number, seq), 1);
    this.sessionOf[seq] = 0;
  }

  /**
   * The rows up to `reach` places before and after `seq` in its session that `accept` lets
   * through (the ones before it first, nearest first), skipping those it turns down; none for a
   * row in no session.
   */
  neighbours(seq: number, reach: number, accept: (seq: number) => boolean): number[] {
    const rows = this.rowsOf(seq);
    if (rows === undefined) return [];
    const row = this.insertionPoint(rows, this.createdAtOf[seq] as number, seq);
    const side = (step: number) => {
      const found: number[] = [];
      for (let i = row + step; i >= 0 && i < rows.length && found.length < reach; i += step) {
        const other = rows[i] as number;
        if (accept(other)) found.push(other);
      }
      return found;
    };
    return [...side(-1), ...side(1)];
  }

  private rowsOf(seq: number): number[] | undefined {
    const session = this.sessionOf[seq];
    return session ? this.sessions[session - 1] : undefined;
  }

  /** Where a row goes in a session's rows, kept in (createdAt, seq) order. */
  private insertionPoint(rows: readonly number[], createdAt: number, seq: number): number {
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = rows[mid] as number;
      const at = this.createdAtOf[other] as number;
      if (at < createdAt || (at === createdAt && other < seq)) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
