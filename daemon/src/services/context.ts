import { createContextKey, type HandlerContext } from "@connectrpc/connect";
import pino from "pino";
import type { Logger } from "../logger.js";

/** The request's logger, carrying its request id; set by the logging interceptor. */
export const requestLoggerKey = createContextKey<Logger>(pino({ level: "silent" }), {
  description: "request logger",
});

/**
 * Notes on the request's log that its answer was found without vectors (an empty reason says
 * they took part), so an embedder outage shows in the daemon's log and not only in answers.
 */
export function logVectorsSkipped(context: HandlerContext, reason: string): void {
  if (reason !== "") context.values.get(requestLoggerKey).warn({ reason }, "searched without vectors");
}
