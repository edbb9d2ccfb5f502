import http from "node:http";

/** A failed call: the daemon answered with a Connect error, or the socket failed. */
export class DaemonCallError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "DaemonCallError";
  }
}

/** The share of the remaining budget the daemon is given: the rest is for the answer's way back and printing it. */
const DEADLINE_SHARE = 0.8;

export interface DaemonCaller {
  /** Calls one unary RPC (of memd.v1.MemoryService unless `service` names another) with a proto-JSON body. */
  call<T>(method: string, body: Record<string, unknown>, service?: string): Promise<T>;
}

/**
 * Unary Connect calls as plain JSON over HTTP/1.1 on the daemon's Unix socket. The hooks run
 * once per prompt, so they skip the protobuf and Connect runtimes: node:http alone starts in a
 * fraction of the time. `signal` aborts every call in flight when the hook's budget runs out;
 * `remainingMs` tells the daemon how much of it is left (Connect's timeout header), so that it
 * answers with what it has in time, e.g. without vectors from an embedder that is slow.
 */
export function createDaemonCaller(socketPath: string, signal: AbortSignal, remainingMs: () => number): DaemonCaller {
  return {
    call<T>(method: string, body: Record<string, unknown>, service = "memd.v1.MemoryService"): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const payload = JSON.stringify(body);
        const request = http.request(
          {
            socketPath,
            method: "POST",
            path: `/${service}/${method}`,
            headers: {
              "content-type": "application/json",
              "connect-protocol-version": "1",
              "content-length": Buffer.byteLength(payload),
              "connect-timeout-ms": Math.max(1, Math.floor(remainingMs() * DEADLINE_SHARE)),
            },
            // One connection per call, closed afterwards, so nothing keeps the process alive.
            agent: false,
            signal,
          },
          (response) => {
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => {
              text += chunk;
            });
            response.on("error", (error) => reject(new DaemonCallError(`${method}: ${error.message}`, "socket")));
            response.on("end", () => {
              let parsed: unknown;
              try {
                parsed = JSON.parse(text);
              } catch {
                reject(new DaemonCallError(`${method}: HTTP ${response.statusCode} with a body that is not JSON`, "bad_response"));
                return;
              }
              if (response.statusCode !== 200) {
                const error = parsed as { code?: unknown; message?: unknown };
                const code = typeof error.code === "string" ? error.code : `http_${response.statusCode}`;
                const message = typeof error.message === "string" ? error.message : "";
                reject(new DaemonCallError(`${method}: ${code} ${message}`.trim(), code));
                return;
              }
              resolve(parsed as T);
            });
          },
        );
        request.on("error", (error: NodeJS.ErrnoException) => {
          reject(new DaemonCallError(`${method}: ${error.code ?? error.name} ${error.message}`, error.code ?? "socket"));
        });
        request.end(payload);
      });
    },
  };
}
