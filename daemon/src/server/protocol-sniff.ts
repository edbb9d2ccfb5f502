import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import type { connectNodeAdapter } from "@connectrpc/connect-node";

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
 * connection is handed to the right server by its first bytes.
 */
export function createSniffingServer(handler: NodeHandler): SniffingServer {
  const h1 = http.createServer(handler);
  const h2 = http2.createServer({}, handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  h2.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  const sockets = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const prefix = received.subarray(0, Math.min(received.length, H2_PREFACE.length));
      const couldBeH2 = prefix.equals(H2_PREFACE.subarray(0, prefix.length));
      if (couldBeH2 && received.length < H2_PREFACE.length) return;
      socket.removeListener("data", onData);
      socket.pause();
      socket.unshift(received);
      (couldBeH2 ? h2 : h1).emit("connection", socket);
      process.nextTick(() => socket.resume());
    };
    socket.on("data", onData);
    socket.on("error", () => socket.destroy());
  });

  return {
    server,
    closeConnections() {
      for (const session of sessions) session.close();
      h1.closeIdleConnections();
    },
    destroyConnections() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
