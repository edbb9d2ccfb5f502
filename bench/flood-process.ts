// One flood of connections in a process of its own (bench/connections.ts forks it), so that the
// flood's own work does not share an event loop with the client whose latency is measured.
// Argument: {"target": FloodTarget, "kind": FloodKind, "count": n, "reopen": boolean} as JSON.
// Sends "ready" once every connection was opened, "all-closed" when the daemon has closed them
// all; answers "status" with what it holds; ends on "stop".
import { type FloodKind, type FloodTarget, openFlood } from "./connection-flood.js";

export interface FloodRequest {
  target: FloodTarget;
  kind: FloodKind;
  count: number;
  reopen: boolean;
}

export type FloodMessage = { type: "ready" | "status"; open: number; closed: number } | { type: "all-closed" };

const request = JSON.parse(process.argv[2] ?? "{}") as FloodRequest;
const send = (message: FloodMessage) => process.send?.(message);
const flood = await openFlood(request.target, request.kind, request.count, { reopen: request.reopen });
send({ type: "ready", open: flood.open(), closed: flood.closed() });
if (!request.reopen) void flood.allClosed().then(() => send({ type: "all-closed" }));
process.on("message", (message) => {
  if (message === "status") send({ type: "status", open: flood.open(), closed: flood.closed() });
  if (message === "stop") {
    flood.stop();
    process.disconnect();
  }
});
