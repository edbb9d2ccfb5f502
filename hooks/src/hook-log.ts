import fs from "node:fs";
import path from "node:path";
import { loadRedactor } from "./load-redactor.js";

/** Past this size the log is rotated once (hooks.log.1), so a broken setup cannot fill the disk. */
const MAX_LOG_BYTES = 1024 * 1024;

/**
 * Appends one line to MEMD_HOME/logs/hooks.log (directory 0700, file 0600), with every secret
 * in it redacted: a message can quote the daemon's answer or the payload (V8's JSON errors show
 * the start of the text). Never rejects: the hooks fail open, and a log that cannot be written
 * must not turn into an error.
 */
export async function appendHookLog(logDir: string, event: string, message: string, now = new Date()): Promise<void> {
  try {
    const redact = await loadRedactor().catch(() => () => "(message withheld: the redactor did not load)");
    fs.mkdirSync(logDir, { recursive: true, mode: 0o700 });
    const file = path.join(logDir, "hooks.log");
    try {
      if (fs.statSync(file).size > MAX_LOG_BYTES) fs.renameSync(file, `${file}.1`);
    } catch {
      // No log yet.
    }
    // Redacted before it is cut, so that no secret is cut short of being recognised.
    const line = `${now.toISOString()} ${event || "-"} ${redact(message).replace(/\s+/g, " ").slice(0, 500)}\n`;
    fs.appendFileSync(file, line, { mode: 0o600 });
  } catch {
    // Nowhere left to report to.
  }
}
