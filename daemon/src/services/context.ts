import { createContextKey } from "@connectrpc/connect";
import pino from "pino";
import type { Logger } from "../logger.js";

/** The request's logger, carrying its request id; set by the logging interceptor. */
export const requestLoggerKey = createContextKey<Logger>(pino({ level: "silent" }), {
  description: "request logger",
});
