import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { TranscriptEvent, TranscriptText, TranscriptToolResult, TranscriptToolUse } from "../../daemon/src/capture/transcript-event.js";
import { parseTranscriptLine } from "../../daemon/src/capture/transcript-line.js";
import { REPO_ROOT } from "./daemon.js";

/** A transcript fixture of test/capture/fixtures: its path and its non-blank lines. */
export function transcriptFixture(name: string): { file: string; lines: string[] } {
  const file = path.join(REPO_ROOT, "test/capture/fixtures", name);
  return { file, lines: fs.readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "") };
}

/** The events of transcript lines (text, or objects written as JSON), each parsed alone as the sweep parses it. */
export function eventsOf(lines: readonly unknown[]): TranscriptEvent[] {
  return lines.flatMap((line, i) => {
    const parsed = parseTranscriptLine(typeof line === "string" ? line : JSON.stringify(line), i + 1);
    return parsed.ok ? parsed.events : [];
  });
}

/** The prose events as [role, text] pairs. */
export const textsOf = (events: readonly TranscriptEvent[]) => events.filter((e): e is TranscriptText => e.kind === "text").map((e) => [e.role, e.text]);
export const toolUsesOf = (events: readonly TranscriptEvent[]) => events.filter((e): e is TranscriptToolUse => e.kind === "tool-use");
export const toolResultsOf = (events: readonly TranscriptEvent[]) => events.filter((e): e is TranscriptToolResult => e.kind === "tool-result");

/**
 * What the user and the assistant say in the Gemini CLI, Copilot CLI and Cursor fixtures: the
 * same invented session (a failing auth test fixed), written in each agent's own format.
 */
export const AUTH_FIX_TEXTS = [
  ["user", "The auth tests fail since the secret rotation. Can you fix verifyAccessToken?"],
  ["assistant", "I'll run the auth tests first to see the failure."],
  ["assistant", expect.stringMatching(/^verifyAccessToken still reads JWT_SECRET/)],
  ["assistant", "The verifier now uses the signing key. Running the auth tests again."],
  ["assistant", "verifyAccessToken now reads JWT_SIGNING_KEY, and all three auth tests pass."],
  ["user", "Thanks. From now on, run the auth tests before you say a fix is done."],
  ["assistant", "Understood: I'll run the auth tests before calling a fix done."],
];
