import { randomBytes, timingSafeEqual } from "node:crypto";

/** How long a sign-in link works if nobody opens it. */
export const LINK_TTL_MS = 60_000;
/** How long a viewer session lasts after it was last used. */
export const SESSION_IDLE_MS = 12 * 60 * 60_000;
/** Bounds on what a flood of OpenViewer calls can make the daemon hold. */
const MAX_LINKS = 100;
const MAX_SESSIONS = 100;

/**
 * The web viewer's sign-in links and sessions, in memory only: a restart ends them all, which
 * costs a person one `memctl ui`. A link is a random code good once and for LINK_TTL_MS; opening
 * it turns it into a session id, which the page keeps in its origin's storage. Ids are 256 random bits,
 * compared in constant time. `now` is given by the caller, so that the rules are tested as values.
 */
export class ViewerSessions {
  /** Unused links: code -> when it expires. */
  private readonly links = new Map<string, number>();
  /** Sessions: id -> when it was last used. */
  private readonly sessions = new Map<string, number>();
  /** Links used within their minute: code -> the session it made, and when the link would have expired. */
  private readonly redeemed = new Map<string, { session: string; expiresAt: number }>();
  /** Sessions something waits on the end of (a watch of changes): id -> what tells it. */
  private readonly endings = new Map<string, AbortController>();

  /** A fresh one-time sign-in code and when it expires. */
  createLink(now: number): { code: string; expiresAt: number } {
    this.prune(now);
    // The oldest unused link goes first: at most MAX_LINKS wait at once.
    if (this.links.size >= MAX_LINKS) this.links.delete(this.links.keys().next().value as string);
    const code = randomBytes(32).toString("hex");
    const expiresAt = now + LINK_TTL_MS;
    this.links.set(code, expiresAt);
    return { code, expiresAt };
  }

  /**
   * Turns a link's code into a new session id, once; null for a code unknown, used or expired.
   * A code presented again within its minute also ends the session it made: the link was seen by
   * someone else too (another local user can read a browser's command line while it starts), and
   * whichever of the two was first, the person's own browser is told to sign in again.
   */
  redeem(code: string, now: number): string | null {
    this.prune(now);
    const reused = this.find(this.redeemed, code);
    if (reused !== undefined) {
      this.end(this.redeemed.get(reused)?.session ?? "");
      this.redeemed.delete(reused);
      return null;
    }
    const found = this.find(this.links, code);
    if (found === undefined) return null;
    const expiresAt = this.links.get(found) ?? now;
    this.links.delete(found);
    if (this.sessions.size >= MAX_SESSIONS) this.end(this.sessions.keys().next().value as string);
    const id = randomBytes(32).toString("hex");
    this.sessions.set(id, now);
    if (this.redeemed.size >= MAX_LINKS) this.redeemed.delete(this.redeemed.keys().next().value as string);
    this.redeemed.set(found, { session: id, expiresAt });
    return id;
  }

  /** True for a live session, whose idle time then starts again. */
  touch(id: string, now: number): boolean {
    this.prune(now);
    const found = this.find(this.sessions, id);
    if (found === undefined) return false;
    // Re-inserted, so that the map stays in order of last use and the oldest is dropped first.
    this.sessions.delete(found);
    this.sessions.set(found, now);
    return true;
  }

  /**
   * A signal that aborts when this live session ends (revoked, signed out by its link used
   * again, or idle past SESSION_IDLE_MS), for a call that outlives the request that was
   * admitted with it; undefined for an id that is no live session.
   */
  endOf(id: string): AbortSignal | undefined {
    const found = this.find(this.sessions, id);
    if (found === undefined) return undefined;
    let ending = this.endings.get(found);
    if (!ending) {
      ending = new AbortController();
      this.endings.set(found, ending);
    }
    return ending.signal;
  }

  /** Ends every session and voids every unused link; says how many of each. */
  revokeAll(): { sessions: number; links: number } {
    const ended = { sessions: this.sessions.size, links: this.links.size };
    for (const id of [...this.sessions.keys()]) this.end(id);
    this.links.clear();
    this.redeemed.clear();
    return ended;
  }

  private prune(now: number): void {
    for (const [code, expiresAt] of this.links) if (expiresAt <= now) this.links.delete(code);
    for (const [id, usedAt] of this.sessions) if (usedAt + SESSION_IDLE_MS <= now) this.end(id);
    for (const [code, { expiresAt }] of this.redeemed) if (expiresAt <= now) this.redeemed.delete(code);
  }

  private end(id: string): void {
    this.sessions.delete(id);
    this.endings.get(id)?.abort();
    this.endings.delete(id);
  }

  /** The key equal to `given`, compared in constant time, so that timing tells nothing of a valid code. */
  private find(map: Map<string, unknown>, given: string): string | undefined {
    const candidate = Buffer.from(given);
    for (const key of map.keys()) {
      const expected = Buffer.from(key);
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) return key;
    }
    return undefined;
  }
}
