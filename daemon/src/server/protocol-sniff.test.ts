// The listener's connection bounds on real sockets, with limits short enough to watch: a
// connection that makes no admitted request in time is closed, however it stalls; an admitted one
// stays while it is used; at the cap the oldest unadmitted one makes room.
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionTable, type ConnectionLimits } from "./connection-table.js";
import { createSniffingServer, type NodeHandler, type SniffingServer } from "./protocol-sniff.js";

let listening: SniffingServer | null = null;
const opened: net.Socket[] = [];

afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  listening?.destroyConnections();
  await new Promise((resolve) => listening?.server.close(resolve));
  listening = null;
});

/** A listener whose guard admits requests that say "Authorization: ok" and refuses the rest. */
async function listen(limits: ConnectionLimits): Promise<{ port: number; table: ConnectionTable }> {
  const table = new ConnectionTable(limits);
  const handler: NodeHandler = (req, res) => {
    if (req.headers.authorization !== "ok") {
      res.writeHead(401);
      res.end();
      return;
    }
    table.admit(req);
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("hello");
  };
  listening = createSniffingServer(handler, table);
  const server = listening.server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, table };
}

function connect(port: number, first?: string): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      if (first !== undefined) socket.write(first);
      resolve({ socket, closed });
    });
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.on("error", () => {});
    socket.once("error", reject);
    opened.push(socket);
  });
}

/** An HTTP/1.1 keep-alive connection that has made one request; resolves with its status. */
async function keptAlive(port: number, authorization: string): Promise<{ status: number; closed: Promise<void> }> {
  const { socket, closed } = await connect(port, `GET / HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\n\r\n`);
  const status = await new Promise<number>((resolve) => socket.once("data", (chunk: Buffer) => resolve(Number(chunk.toString("latin1").split(" ")[1]))));
  return { status, closed };
}

const SHORT: ConnectionLimits = { maxConnections: 100, admitWithinMs: 300, idleMs: 60_000 };

describe("a listener's connection bounds", () => {
  it("closes a connection that sends nothing, part of an HTTP/2 preface, or headers a byte at a time", async () => {
    const { port, table } = await listen(SHORT);
    const idle = await connect(port);
    const preface = await connect(port, "PRI * HTTP/2.0\r\n\r\nSM");
    const slow = await connect(port, "GET / HTTP/1.1\r\nHost: lo");
    const drip = setInterval(() => slow.socket.write("o"), 20);
    await Promise.all([idle.closed, preface.closed, slow.closed]);
    clearInterval(drip);
    expect(table.size).toBe(0);
  });

  it("closes a connection whose requests are all refused, but keeps an admitted one while a later one times out", async () => {
    const { port } = await listen(SHORT);
    const admitted = await keptAlive(port, "ok");
    expect(admitted.status).toBe(200);
    const refused = await keptAlive(port, "wrong");
    expect(refused.status).toBe(401);
    const later = await connect(port);
    await Promise.all([refused.closed, later.closed]);
    let admittedClosed = false;
    void admitted.closed.then(() => {
      admittedClosed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(admittedClosed).toBe(false);
  });

  it("closes an admitted connection once it has been quiet for the idle time", async () => {
    const { port, table } = await listen({ ...SHORT, idleMs: 200 });
    const admitted = await keptAlive(port, "ok");
    await admitted.closed;
    expect(table.size).toBe(0);
  });

  it("at the cap, closes the oldest connection not yet admitted so that a new client gets through", async () => {
    const { port, table } = await listen({ maxConnections: 20, admitWithinMs: 60_000, idleMs: 60_000 });
    const admitted = await keptAlive(port, "ok");
    const idle = [];
    for (let i = 0; i < 25; i += 1) idle.push(await connect(port));
    await Promise.all(idle.slice(0, 6).map((c) => c.closed));
    const answer = await fetchStatus(port, "ok");
    expect(answer).toBe(200);
    expect(table.size).toBeLessThanOrEqual(20);
    // The admitted connection, the oldest of all, was never the one to make room.
    let admittedClosed = false;
    void admitted.closed.then(() => {
      admittedClosed = true;
    });
    await idle[6]?.closed;
    expect(admittedClosed).toBe(false);
  });

  it("at the cap with every connection busy, closes the new one instead", async () => {
    const table = new ConnectionTable({ maxConnections: 2, admitWithinMs: 60_000, idleMs: 60_000 });
    const stalled: http.ServerResponse[] = [];
    listening = createSniffingServer((req, res) => {
      table.admit(req);
      stalled.push(res as http.ServerResponse);
    }, table);
    const server = listening.server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    await connect(port, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await connect(port, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    while (stalled.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const third = await connect(port);
    await third.closed;
    expect(table.size).toBe(2);
    for (const res of stalled) res.end();
  });

  it("holds HTTP/2 sessions by the same rules: refused-only sessions close, an admitted one is sent GOAWAY when idle", async () => {
    const { port, table } = await listen({ ...SHORT, idleMs: 400 });
    const refused = http2.connect(`http://127.0.0.1:${port}`);
    refused.on("error", () => {});
    const refusedClosed = new Promise((resolve) => refused.once("close", resolve));
    expect(await h2Status(refused, "wrong")).toBe(401);
    const admitted = http2.connect(`http://127.0.0.1:${port}`);
    const goaway = new Promise((resolve) => admitted.once("goaway", resolve));
    expect(await h2Status(admitted, "ok")).toBe(200);
    await refusedClosed;
    await goaway;
    admitted.close();
    expect(table.size).toBeLessThanOrEqual(1);
  });
});

function fetchStatus(port: number, authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/", agent: false, headers: { authorization } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
  });
}

function h2Status(session: http2.ClientHttp2Session, authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ":path": "/", authorization });
    stream.on("response", (headers) => resolve(Number(headers[":status"])));
    stream.on("error", reject);
    stream.resume();
    stream.end();
  });
}
