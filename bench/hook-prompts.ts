import { mulberry32, pick } from "./seeded-random.js";
import type { SyntheticCorpus } from "./synthetic-memories.js";

/** A prompt as a user types it, and the project whose directory it is typed in. */
export interface HookPrompt {
  prompt: string;
  project: string;
}

// Coding requests around the corpus's terms (identifiers, paths, tickets, error codes), each with
// at least three words the hook counts as meaningful, so that every prompt is searched.
const REQUESTS: readonly ((terms: string) => string)[] = [
  (t) => `Why does ${t} keep failing in CI since yesterday's merge? Find the root cause before patching anything.`,
  (t) => `Refactor the code around ${t} so that retries and timeouts are handled in one place.`,
  (t) => `Can you explain how ${t} is wired up, and whether staging is configured differently from production?`,
  (t) => `Customers reported errors around ${t} after the last deploy; investigate and propose a fix.`,
  (t) => `Write a migration plan for ${t} that stays backwards compatible with the mobile clients.`,
  (t) => `Add logging around ${t}: we need request ids and durations to debug the latency spikes.`,
  (t) => `Review the recent changes touching ${t} and list anything risky before the release.`,
];
const FOLLOW_UPS: readonly string[] = [
  "",
  " Keep the public API unchanged.",
  " Run the affected tests afterwards and summarise what changed.",
  " Don't touch the generated code under gen/.",
  " We discussed this last week, so check what we decided then.",
];

/** A reproducible stream of prompts built from the corpus's searches, in their projects. */
export function createPromptStream(corpus: SyntheticCorpus, seed: number): () => HookPrompt {
  const random = mulberry32(seed);
  const nextQuery = corpus.queries(seed + 1);
  return () => {
    const { query, project } = nextQuery();
    return { prompt: `${pick(random, REQUESTS)(query)}${pick(random, FOLLOW_UPS)}`, project };
  };
}

/** Claude Code's UserPromptSubmit payload (shape as in test/hooks/fixtures/user-prompt-submit.json). */
export function userPromptPayload(prompt: string, cwd: string, sessionId: string): string {
  return JSON.stringify({
    session_id: sessionId,
    prompt_id: `${sessionId}-prompt`,
    transcript_path: `${cwd}/.claude/${sessionId}.jsonl`,
    cwd,
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt,
  });
}
