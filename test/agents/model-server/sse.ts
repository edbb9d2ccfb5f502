import type { ServerResponse } from "node:http";

/** Starts a server-sent event stream. */
export function openStream(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
}

/** One event: `event:` when named (Anthropic's and OpenAI Responses' style), then its JSON. */
export function sendEvent(res: ServerResponse, data: unknown, event?: string): void {
  res.write(`${event === undefined ? "" : `event: ${event}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
}
