/** The token thread: counts texts with o200k_base for the injection record (token-thread.ts). */
import { parentPort } from "node:worker_threads";
import { o200kTokens } from "./token-count.js";
import type { TokenCountReply, TokenCountRequest } from "./token-protocol.js";

const port = parentPort;
if (!port) throw new Error("token-worker.js runs as a worker thread of memd's injection record");
port.on("message", (request: TokenCountRequest) => {
  const reply: TokenCountReply = { id: request.id, counts: request.texts.map(o200kTokens) };
  port.postMessage(reply);
});
