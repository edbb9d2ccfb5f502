import type { MemdEndpoint } from "../../transport/endpoint.js";
import type { MemdClients } from "../../transport/transport.js";

/** Long enough for maintenance on a large store, short enough that a hung daemon surfaces. */
const CALL_TIMEOUT_MS = 120_000;

/** Where the daemon is and clients for it, created on first use so start-up never touches the socket. */
export interface DaemonLink {
  endpoint: MemdEndpoint;
  clients(): Promise<MemdClients>;
}

export function createDaemonLink(endpoint: MemdEndpoint): DaemonLink {
  let clients: Promise<MemdClients> | undefined;
  return {
    endpoint,
    clients() {
      // Imported on the first tool call, not at start-up: the transport (Node's http, http2 and
      // tls modules) and the services' descriptors are a fifth of what an agent would otherwise
      // wait for before `initialize` is answered (bench: `npm run bench -- --only mcp`).
      // HTTP/1.1 opens a connection per call: nothing stays open between tool calls, so a
      // restarted daemon is picked up without reconnect logic.
      clients ??= import("../../transport/transport.js").then(({ createMemdClients, createSocketTransport }) =>
        createMemdClients(createSocketTransport({ socketPath: endpoint.socketPath, httpVersion: "1.1", timeoutMs: CALL_TIMEOUT_MS })),
      );
      return clients;
    },
  };
}
