import fs from "node:fs";
import path from "node:path";

/** Past this size the log is rotated once (hooks.log.1), so a broken setup cannot fill the disk. */
const MAX_LOG_BYTES = 1024 * 1024;

/**
 * Appends one line to MEMD_HOME/logs/hooks.log (directory 0700, file 0600). Never throws: the
 * hooks fail open, and a log that cannot be written must not turn into an error. The shim never
 * parses the payload, so a line holds only its own reason or the daemon's refusal, which quotes
 * no value it has not redacted first (memory/validate.ts).
 */
export function appendHookLog(logDir: string, event: string, message: string, now = new Date()): void {
  try {
    fs.mkdirSync(logDir, { recursive: true, mode: 0o700 });
    const file = path.join(logDir, "hooks.log");
    try {
      if (fs.statSync(file).size > MAX_LOG_BYTES) fs.renameSync(file, `${file}.1`);
    } catch {
      // No log yet.
    }
    const line = `${now.toISOString()} ${event || "-"} ${message.replace(/\s+/g, " ").slice(0, 500)}\n`;
    fs.appendFileSync(file, line, { mode: 0o600 });
  } catch {
    // Nowhere left to report to.
  }
}
