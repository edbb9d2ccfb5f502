import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** How long the file must stay the same size to count as written, and how often to look. */
const QUIET_MS = 250;
const POLL_MS = 50;
/** The most to wait for a quiet file. */
const QUIET_MAX_WAIT_MS = 5000;
/**
 * The most to wait for an end marker. The agent writes it as it exits, which on a loaded machine
 * took longer than 5 s (a CI run under load swept Copilot's first 4 lines and saved nothing); the
 * daemon is resident and the wait holds up no other sweep, so it can afford a minute.
 */
const MARKER_MAX_WAIT_MS = 60_000;
/** The end of a file read for its last line. */
const TAIL_BYTES = 64 * 1024;

/**
 * Waits until a transcript is written: until its last part holds `endMarker` when one is given,
 * else until QUIET_MS pass without a change of size or modification time; at most QUIET_MAX_WAIT_MS (MARKER_MAX_WAIT_MS with a marker).
 * A hook's sweep starts as soon as the hook has its answer, and an agent may still be writing
 * the session then: Copilot CLI flushes its events.jsonl after its sessionEnd hook returns (seen
 * with 1.0.102: 4 of 15 lines written when the hook ran, and under load no file at all), its last
 * event `session.shutdown`. Without a marker, a file that cannot be read ends the wait; the sweep
 * reports it. `maxWaitMs` is for tests.
 */
export async function settleTranscript(file: string, endMarker?: string, maxWaitMs = endMarker === undefined ? QUIET_MAX_WAIT_MS : MARKER_MAX_WAIT_MS): Promise<void> {
  const now = () => performance.now();
  const started = now();
  let last = "";
  let since = started;
  while (now() - started < maxWaitMs) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (endMarker !== undefined) {
      // A file not yet created is waited for too: the agent writes it as it exits.
      if (stat !== undefined && tail(file, stat.size).includes(endMarker)) return;
    } else if (stat === undefined) {
      return;
    } else {
      const mark = `${stat.size}:${stat.mtimeMs}`;
      if (mark !== last) {
        last = mark;
        since = now();
      } else if (now() - since >= QUIET_MS) return;
    }
    await sleep(POLL_MS);
  }
}

function tail(file: string, size: number): string {
  const fd = fs.openSync(file, "r");
  try {
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, size - length);
    return buffer.toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}
