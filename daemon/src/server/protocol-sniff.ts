import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import type { connectNodeAdapter } from "@connectrpc/connect-node";
import type { ConnectionTable } from "./connection-table.js";

/** A request handler that serves both HTTP/1.1 and HTTP/2 requests. */
export type NodeHandler = ReturnType<typeof connectNodeAdapter>;

/** The first bytes an HTTP/2 client with prior knowledge sends ("PRI * HTTP/2.0..."). */
const H2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

export interface SniffingServer {
  server: net.Server;
  /** Asks open HTTP/2 sessions and idle HTTP/1.1 connections to close. */
  closeConnections(): void;
  /** Drops every connection, busy or not. */
  destroyConnections(): void;
}

/**
 * One listener for both HTTP/1.1 and cleartext HTTP/2 (h2c with prior knowledge): gRPC needs
 * HTTP/2, while curl without flags and Python's standard library speak HTTP/1.1. Each new
 * connection is handed to the right server by its first bytes. `connections` holds them, and
 * closes those that wait too long, sit idle or come past its cap (connection-table.ts); the
 * handler tells it which requests its guard admitted.
 */
export function createSniffingServer(handler: NodeHandler, connections: ConnectionTable): SniffingServer {
  const counted: NodeHandler = (req, res) => {
    connections.track(req, res);
    handler(req, res);
  };
  const h1 = http.createServer(counted);
  // Node checks HTTP/1.1 headersTimeout and requestTimeout, and knows which connections are idle
  // for closeIdleConnections, only from a server's "listening" event; this one never listens
  // itself (it is handed its connections below), so without this it did neither.
  h1.emit("listening");
  const h2 = http2.createServer({}, counted);
  const sessions = new Set<http2.ServerHttp2Session>();
  /** The connection h2 is being handed, whose session its "session" event (synchronous) brings. */
  let handing: net.Socket | null = null;
  h2.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    if (handing) connections.attachSession(handing, session);
  });

  const server = net.createServer((socket) => {
    socket.on("error", () => socket.destroy());
    if (!connections.open(socket)) return;
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const prefix = received.subarray(0, Math.min(received.length, H2_PREFACE.length));
      const couldBeH2 = prefix.equals(H2_PREFACE.subarray(0, prefix.length));
      if (couldBeH2 && received.length < H2_PREFACE.length) return;
      socket.removeListener("data", onData);
      socket.pause();
      socket.unshift(received);
      if (couldBeH2) {
        handing = socket;
        h2.emit("connection", socket);
        handing = null;
      } else {
        h1.emit("connection", socket);
      }
      process.nextTick(() => socket.resume());
    };
    socket.on("data", onData);
  });

  return {
    server,
    closeConnections() {
      for (const session of sessions) session.close();
      // Also stops the timeout checks started above.
      h1.close();
    },
    destroyConnections() {
      connections.destroyAll();
    },
  };
}
