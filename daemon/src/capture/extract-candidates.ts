import type { CaptureCandidate } from "./candidate.js";
import { extractEpisodes } from "./extract-episodes.js";
import { extractPreferences } from "./extract-preferences.js";
import { extractShellFailures } from "./extract-shell-failures.js";
import { extractStatements } from "./extract-statements.js";
import type { TranscriptEvent, TranscriptText } from "./transcript-event.js";

/** Inferred memories one session may stage: the cap, so a long session cannot flood the review queue. */
export const MAX_STAGED_PER_SESSION = 5;
/**
 * Preferences are the user's own words and become active, so they sit outside the staged cap;
 * they get their own, larger cap as a guard against a transcript full of pasted rules.
 */
export const MAX_PREFERENCES_PER_SESSION = 10;
/** Failure traces are recorded facts, saved active as the hooks save them; capped like preferences. */
export const MAX_TRACES_PER_SESSION = 10;

const KIND_RANK: Record<CaptureCandidate["kind"], number> = { preference: 0, decision: 1, episode: 2, fact: 3, trace: 4 };
const SOURCE_RANK: Record<CaptureCandidate["source"], number> = { user: 0, tools: 1, assistant: 2 };

/**
 * Everything worth remembering in a transcript, best first: the user's preferences, then
 * decisions, bug-fix episodes and environment facts, the user's words before the assistant's
 * within each kind, earlier before later. Deterministic: the same transcript yields the same
 * list, which is what makes a second sweep of it a no-op. `shellFailures` adds a trace of each
 * failed shell command, for agents whose hooks cannot save them as they happen.
 */
export function extractCandidates(events: readonly TranscriptEvent[], cwd: string, options: { shellFailures?: boolean } = {}): CaptureCandidate[] {
  const texts = events.filter((e): e is TranscriptText => e.kind === "text");
  const traces = options.shellFailures === true ? extractShellFailures(events) : [];
  const all = [...extractPreferences(texts), ...extractStatements(texts), ...extractEpisodes(events, cwd), ...traces];
  return all.sort((a, b) => KIND_RANK[a.kind] - KIND_RANK[b.kind] || SOURCE_RANK[a.source] - SOURCE_RANK[b.source] || a.line - b.line);
}
