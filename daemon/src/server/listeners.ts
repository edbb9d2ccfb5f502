import fs from "node:fs";
import type net from "node:net";
import { ConnectionTable, LISTENER_LIMITS } from "./connection-table.js";
import { createSniffingServer, type NodeHandler, type SniffingServer } from "./protocol-sniff.js";

/**
 * Connections the kernel queues for accept on each listener. At Node's 511, a flood reconnecting
 * as fast as memd closed it kept the queue full, and a client's new connection was dropped and
 * retried a second later (bench:connections); Linux caps this at net.core.somaxconn, 4096 since 5.4.
 */
const LISTEN_BACKLOG = 4096;

/** Makes a listener's request handler, given the test that admits a request on its own connections. */
export type ListenerHandler = (admitted: (req: Parameters<NodeHandler>[0]) => void) => NodeHandler;

/**
 * memd's listeners (the Unix socket, and loopback TCP when asked for), each holding its own
 * connections, so that a flood on the TCP port leaves the socket's alone; and the calls in
 * flight on all of them, so that shutdown can wait for them.
 */
export class Listeners {
  private readonly servers: SniffingServer[] = [];
  private readonly inFlight = new InFlightCounter();
  private socketPath: string | null = null;

  /** Listens on a Unix socket that only this user can open (0600 from the first moment); a file already there is stale. */
  async listenSocket(socketPath: string, handler: ListenerHandler): Promise<void> {
    const server = this.server(handler);
    fs.rmSync(socketPath, { force: true });
    const previous = process.umask(0o177);
    try {
      await listen(server.server, { path: socketPath, backlog: LISTEN_BACKLOG });
    } finally {
      process.umask(previous);
    }
    this.servers.push(server);
    this.socketPath = socketPath;
    fs.chmodSync(socketPath, 0o600);
  }

  /** Listens on a loopback address; returns the address bound. */
  async listenTcp(address: { host: string; port: number }, handler: ListenerHandler): Promise<{ host: string; port: number }> {
    const server = this.server(handler);
    await listen(server.server, { port: address.port, host: address.host, backlog: LISTEN_BACKLOG });
    this.servers.push(server);
    const bound = server.server.address() as net.AddressInfo;
    return { host: bound.address, port: bound.port };
  }

  /** Takes no new connections. */
  stopAccepting(): void {
    for (const s of this.servers) s.server.close();
  }

  /** Closes the connections no call is using. */
  closeIdle(): void {
    for (const s of this.servers) s.closeConnections();
  }

  /** Resolves once no call is in flight, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void> {
    return this.inFlight.drained(timeoutMs);
  }

  /** Drops every connection, busy or not, and removes the socket file. */
  destroy(): void {
    for (const s of this.servers) s.destroyConnections();
    if (this.socketPath) fs.rmSync(this.socketPath, { force: true });
  }

  private server(handler: ListenerHandler): SniffingServer {
    const connections = new ConnectionTable(LISTENER_LIMITS);
    return createSniffingServer(this.inFlight.wrap(handler((req) => connections.admit(req))), connections);
  }
}

/** The origin a browser sees the loopback listener at: http://127.0.0.1:7345, http://[::1]:7345. */
export function listenerOrigin(tcp: { host: string; port: number }): string {
  return `http://${tcp.host.includes(":") ? `[${tcp.host}]` : tcp.host}:${tcp.port}`;
}

function listen(server: net.Server, options: net.ListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options, () => resolve());
  });
}

/** Counts requests in progress so that shutdown can wait for them. */
class InFlightCounter {
  private count = 0;
  private readonly waiters: (() => void)[] = [];

  wrap(handler: NodeHandler): NodeHandler {
    return (req, res) => {
      this.count += 1;
      res.once("close", () => {
        this.count -= 1;
        if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
      });
      handler(req, res);
    };
  }

  drained(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
