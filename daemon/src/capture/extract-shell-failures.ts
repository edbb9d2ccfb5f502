import { type CaptureCandidate, candidate } from "./candidate.js";
import { SHELL_FAILURE_TAG, shellFailureTrace } from "./failure-trace.js";
import type { TranscriptEvent, TranscriptToolUse } from "./transcript-event.js";

/**
 * A trace for each failed shell command in a transcript, as the after-tool hooks save them: for
 * agents whose hooks cannot tell a failure (Codex's PostToolUse carries no exit code), the
 * transcript is where the failure is. A command that failed twice the same way is one trace.
 */
export function extractShellFailures(events: readonly TranscriptEvent[]): CaptureCandidate[] {
  const uses = new Map<string, TranscriptToolUse>();
  const out: CaptureCandidate[] = [];
  for (const event of events) {
    if (event.kind === "tool-use") uses.set(event.id, event);
    if (event.kind !== "tool-result" || !event.isError) continue;
    const use = uses.get(event.toolUseId);
    if (use === undefined || use.command.trim() === "") continue;
    const saved = shellFailureTrace(use.command, event.outputHead, false);
    if (saved === null || out.some((c) => c.content === saved.trace)) continue;
    out.push(
      candidate({
        kind: "trace",
        content: saved.trace,
        concepts: saved.program ? [saved.program] : [],
        source: "tools",
        line: event.line,
        reason: `shell command failed (${SHELL_FAILURE_TAG})`,
      }),
    );
  }
  return out;
}
