import fs from "node:fs";
import path from "node:path";
import pino, { type Logger } from "pino";
import type { LogLevel } from "./config/config.js";
import { redactDeep } from "./redact/redact-deep.js";

export type { Logger };

export interface DaemonLogger {
  logger: Logger;
  /**
   * Closes the file once lines deferred to the next turn of the event loop are written (a call's
   * outcome is logged after its response goes out); call before exit.
   */
  flush(): Promise<void>;
}

/** Creates the daemon's one root logger, writing JSON lines to MEMD_HOME/logs/memd.log. */
export function createLogger(logDir: string, level: LogLevel): DaemonLogger {
  fs.mkdirSync(logDir, { recursive: true, mode: 0o700 });
  // Synchronous writes: a line costs microseconds, and the log of a crash is complete up to the crash.
  const destination = pino.destination({ dest: path.join(logDir, "memd.log"), sync: true, mkdir: true });
  // A line from work that outlives the shutdown's wait is dropped once the file is closed,
  // instead of throwing from wherever it was logged.
  let closed = false;
  const guarded = { write: (line: string) => closed || destination.write(line) };
  // A write that fails (the disk is full, the file system went read-only) is reported on the
  // daemon's stderr once per spell of failures, and the line is dropped: the log is not worth the
  // daemon. An unhandled 'error' event would end the process.
  let failing = false;
  destination.on("error", (error: NodeJS.ErrnoException) => {
    if (failing) return;
    failing = true;
    process.stderr.write(`memd: cannot write ${path.join(logDir, "memd.log")} (${error.code ?? error.message}): log lines are dropped until it can\n`);
  });
  destination.on("write", () => {
    failing = false;
  });
  const logger = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Log lines can echo what a request carried (a rejected value, an error from a provider):
      // they pass through the same redactor as memories.
      formatters: { log: (object) => redactDeep(object) as Record<string, unknown> },
      serializers: { err: (error: unknown) => redactDeep(pino.stdSerializers.err(error as Error)) },
    },
    guarded,
  );
  return {
    logger,
    // Immediates run in the order they were set: one set now runs after every deferred line.
    flush: () =>
      new Promise<void>((resolve) => {
        setImmediate(() => {
          closed = true;
          destination.end();
          resolve();
        });
      }),
  };
}
