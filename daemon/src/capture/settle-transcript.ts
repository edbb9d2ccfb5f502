import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** How long the file must stay the same size to count as written, how often to look, and the most to wait. */
const QUIET_MS = 250;
const POLL_MS = 50;
const MAX_WAIT_MS = 3000;

/**
 * Waits until a transcript stops growing: QUIET_MS without a change of size or modification
 * time, at most MAX_WAIT_MS. A hook's sweep starts as soon as the hook has its answer, and an
 * agent may still be writing the session then: Copilot CLI flushes its events.jsonl after its
 * sessionEnd hook returns (seen with 1.0.102: 4 of 15 lines written when the hook ran). A file
 * that cannot be read ends the wait; the sweep reports it.
 */
export async function settleTranscript(file: string): Promise<void> {
  const now = () => performance.now();
  const started = now();
  let last = "";
  let since = started;
  while (now() - started < MAX_WAIT_MS) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat === undefined) return;
    const mark = `${stat.size}:${stat.mtimeMs}`;
    if (mark !== last) {
      last = mark;
      since = now();
    } else if (now() - since >= QUIET_MS) return;
    await sleep(POLL_MS);
  }
}
