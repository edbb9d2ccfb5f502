import type http2 from "node:http2";
import type net from "node:net";
import type { NodeHandler } from "./protocol-sniff.js";

type NodeRequest = Parameters<NodeHandler>[0];

/** How a listener bounds the connections it holds. */
export interface ConnectionLimits {
  /** Connections held at once; a new one past this makes room as ConnectionTable says. */
  maxConnections: number;
  /** A connection that has made no admitted request this long after it opened is closed. */
  admitWithinMs: number;
  /** An admitted connection with no request in progress this long is closed. */
  idleMs: number;
}

/**
 * Each listener's bounds. 512 connections per listener keep the daemon's descriptors near its
 * own couple of hundred plus 1,024, whatever is thrown at it, and the Unix socket (where memctl,
 * the hooks and memd-mcp connect) keeps its own 512 when the TCP port is flooded. Ten seconds is
 * long for a client on the same machine to send its first request; five minutes of quiet lets
 * memd-mcp's session stay open between an agent's tool calls.
 */
export const LISTENER_LIMITS: ConnectionLimits = { maxConnections: 512, admitWithinMs: 10_000, idleMs: 5 * 60_000 };

interface Entry {
  socket: net.Socket;
  /** Set once the connection turned out to be HTTP/2. */
  session: http2.ServerHttp2Session | null;
  admitted: boolean;
  /** Requests begun and not yet answered. */
  inFlight: number;
  timer: NodeJS.Timeout | null;
}

/**
 * The connections a listener holds, and when each is closed. Until a connection has made a request
 * the listener admits (on TCP: with the token, the hook token or a viewer session; on the Unix
 * socket every request), it is closed `admitWithinMs` after it opened: idle connections, cut-short
 * HTTP/2 prefaces and headers sent a byte at a time all end so, and none of them needs the token.
 * An admitted connection with nothing in progress is closed after `idleMs`. At the cap, a new
 * connection closes the oldest one that was never admitted and has nothing in progress, else the
 * admitted one quiet the longest; when every connection has a request in progress, the new one is
 * closed instead. So the user's own clients, which send their request as soon as they connect,
 * get through a flood of connections from someone without the token: to push one of them out
 * before its first request, the flood would have to open `maxConnections` more in that moment.
 */
export class ConnectionTable {
  /** Connections not admitted yet, oldest first. */
  private readonly waiting = new Map<net.Socket, Entry>();
  /** Admitted connections, the one quiet longest first (re-inserted when a request ends). */
  private readonly admitted = new Map<net.Socket, Entry>();
  private readonly bySession = new WeakMap<http2.ServerHttp2Session, Entry>();

  constructor(private readonly limits: ConnectionLimits = LISTENER_LIMITS) {}

  /** Connections held now. */
  get size(): number {
    return this.waiting.size + this.admitted.size;
  }

  /** Takes a new connection, making room for it at the cap; false when it was closed instead. */
  open(socket: net.Socket): boolean {
    if (this.size >= this.limits.maxConnections) {
      const room = first(this.waiting) ?? first(this.admitted);
      if (room === undefined) {
        socket.destroy();
        return false;
      }
      this.end(room);
    }
    const entry: Entry = { socket, session: null, admitted: false, inFlight: 0, timer: null };
    this.waiting.set(socket, entry);
    this.closeAfter(entry, this.limits.admitWithinMs);
    socket.once("close", () => {
      if (entry.timer) clearTimeout(entry.timer);
      this.waiting.delete(socket);
      this.admitted.delete(socket);
    });
    return true;
  }

  /** Notes that `socket` carries an HTTP/2 session, whose requests are found by it. */
  attachSession(socket: net.Socket, session: http2.ServerHttp2Session): void {
    const entry = this.waiting.get(socket) ?? this.admitted.get(socket);
    if (!entry) return;
    entry.session = session;
    this.bySession.set(session, entry);
  }

  /** The connection of `req` passed the listener's guard: it stays while it is in use. */
  admit(req: NodeRequest): void {
    const entry = this.entryOf(req);
    if (!entry || entry.admitted) return;
    entry.admitted = true;
    this.waiting.delete(entry.socket);
    this.admitted.set(entry.socket, entry);
    if (entry.inFlight === 0) this.closeAfter(entry, this.limits.idleMs);
  }

  /** Counts `req` as in progress until its response closes: a busy connection is never closed for quiet. */
  track(req: NodeRequest, res: { once(event: "close", listener: () => void): unknown }): void {
    const entry = this.entryOf(req);
    if (!entry) return;
    entry.inFlight += 1;
    if (entry.admitted && entry.timer) {
      clearTimeout(entry.timer);
      entry.timer = null;
    }
    res.once("close", () => {
      entry.inFlight -= 1;
      if (entry.inFlight > 0 || !entry.admitted || !this.admitted.has(entry.socket)) return;
      this.admitted.delete(entry.socket);
      this.admitted.set(entry.socket, entry);
      this.closeAfter(entry, this.limits.idleMs);
    });
  }

  /** Drops every connection, busy or not. */
  destroyAll(): void {
    for (const entry of [...this.waiting.values(), ...this.admitted.values()]) entry.socket.destroy();
  }

  private entryOf(req: NodeRequest): Entry | undefined {
    if ("stream" in req) return this.bySession.get(req.stream.session as http2.ServerHttp2Session);
    return this.waiting.get(req.socket) ?? this.admitted.get(req.socket);
  }

  /** Closes the connection after `ms` unless the timer is set again or cleared first. */
  private closeAfter(entry: Entry, ms: number): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.end(entry), ms);
    entry.timer.unref();
  }

  /**
   * Ends a connection. An admitted HTTP/2 session (which has nothing in progress when this is
   * called) is told with GOAWAY, so that its client opens a new one for its next call; anything
   * else is cut, an unadmitted connection even in the middle of a request or a refusal.
   */
  private end(entry: Entry): void {
    this.waiting.delete(entry.socket);
    this.admitted.delete(entry.socket);
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    if (entry.admitted && entry.session && !entry.session.closed) {
      entry.session.close(() => entry.socket.destroy());
    } else {
      entry.socket.destroy();
    }
  }
}

/** The first entry with no request in progress, in the map's order. */
function first(entries: Map<net.Socket, Entry>): Entry | undefined {
  for (const entry of entries.values()) if (entry.inFlight === 0) return entry;
  return undefined;
}
