/** What the transcript sweep proposes to remember, before it becomes a memory record. */
export interface CaptureCandidate {
  kind: "preference" | "decision" | "fact" | "episode" | "trace";
  content: string;
  /** Episodes: what failed. */
  problem: string;
  /** Episodes: what changed to fix it. */
  solution: string;
  concepts: string[];
  /** Repository paths, relative to the session's working directory when inside it. */
  files: string[];
  /** Preferences said to hold everywhere go to the global project. */
  scope: "project" | "global";
  /** Who said it: the user's own words outrank the assistant's. */
  source: "user" | "assistant" | "tools";
  /** The transcript line it was taken from. */
  line: number;
  /** Why it was extracted, in a few words. */
  reason: string;
  /**
   * The language model that proposed it ("openai:gpt-4o-mini"), when one did (MEMD_LLM). A
   * model's reading of a transcript is an inference, so such candidates are always staged.
   */
  model?: string;
}

/** A candidate with the defaults for the fields most kinds leave empty. */
export function candidate(fields: Pick<CaptureCandidate, "kind" | "content" | "source" | "line" | "reason"> & Partial<CaptureCandidate>): CaptureCandidate {
  return { problem: "", solution: "", concepts: [], files: [], scope: "project", ...fields };
}

/** "also, from now on always use pnpm" -> "Always use pnpm." */
export function tidyStatement(text: string): string {
  let out = text.trim();
  for (let previous = ""; previous !== out; ) {
    previous = out;
    out = out
      .replace(/^(?:also|and|but|so|ok(?:ay)?|oh|plus|btw|by the way|fyi|note|one more thing|please|then)\b[,:]?\s+/i, "")
      .replace(/^(?:from now on|going forward|from here on(?: out)?|in (?:the )?future)\b,?\s+/i, "");
  }
  out = out.replace(/[\s,;:]+$/, "");
  if (out === "") return "";
  if (!/[.!?)`"']$/.test(out)) out += ".";
  return out.charAt(0).toUpperCase() + out.slice(1);
}
