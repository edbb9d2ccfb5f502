import http from "node:http";
import http2 from "node:http2";
import net from "node:net";

/** Where a request goes: the daemon's Unix socket or its loopback TCP port. */
export type Listener = { socketPath: string } | { port: number };

export interface OutgoingRequest {
  method?: string;
  /** Path and query. */
  path: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
}

/** Everything an HTTP answer carried, with the body as bytes (streamed envelopes are binary). */
export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  trailers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function connect(listener: Listener): net.Socket {
  return "socketPath" in listener ? net.connect(listener.socketPath) : net.connect(listener.port, "127.0.0.1");
}

/** One HTTP/1.1 request on its own connection. */
export function h1Request(listener: Listener, req: OutgoingRequest): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        ...("socketPath" in listener ? { socketPath: listener.socketPath } : { host: "127.0.0.1", port: listener.port }),
        method: req.method ?? "POST",
        path: req.path,
        headers: { host: "localhost", ...req.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, trailers: res.trailers, body: Buffer.concat(chunks) }));
      },
    );
    request.on("error", reject);
    request.end(req.body);
  });
}

/** An HTTP/2 (h2c, prior knowledge) connection that carries many requests. */
export interface H2Connection {
  request(req: OutgoingRequest): Promise<Exchange>;
  close(): void;
}

export function h2Connect(listener: Listener): H2Connection {
  const session = http2.connect("http://localhost", { createConnection: () => connect(listener) });
  session.on("error", () => {});
  return {
    request(req) {
      return new Promise((resolve, reject) => {
        const stream = session.request({ ":method": req.method ?? "POST", ":path": req.path, ...req.headers });
        let headers: http2.IncomingHttpHeaders = {};
        let trailers: http2.IncomingHttpHeaders = {};
        const chunks: Buffer[] = [];
        stream.on("response", (h) => {
          headers = h;
        });
        stream.on("trailers", (t) => {
          trailers = t;
        });
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", reject);
        stream.on("close", () => {
          if (headers[":status"] === undefined) reject(new Error(`stream closed without an answer (code ${stream.rstCode})`));
          else resolve({ status: Number(headers[":status"]), headers, trailers, body: Buffer.concat(chunks) });
        });
        stream.end(req.body);
      });
    },
    close: () => session.close(),
  };
}

/**
 * Writes raw bytes, which no HTTP client would send, and returns whatever comes back until the
 * daemon closes the connection or stays silent for idleMs (a request cut short waits for more).
 */
export function rawExchange(listener: Listener, bytes: Uint8Array, idleMs = 300): Promise<Buffer> {
  return new Promise((resolve) => {
    const socket = connect(listener);
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const idle = () => {
      clearTimeout(timer);
      timer = setTimeout(() => socket.destroy(), idleMs);
    };
    socket.on("connect", () => {
      socket.write(bytes);
      idle();
    });
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      idle();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}
