import { escapeRegExp } from "../escape-reg-exp.js";
import { type CaptureCandidate, candidate, tidyStatement } from "./candidate.js";
import { directivesIn } from "./extract-preferences.js";
import { splitSentences } from "./sentences.js";
import type { TranscriptText } from "./transcript-event.js";

/** Verbs of choosing: "go with", "decided", "switch to"... */
const CHOICE =
  /\b(?:go(?:ing)?\s+with|went\s+with|let's\s+(?:use|go\s+with)|we(?:'ll|\s+will|'re\s+going\s+to)\s+(?:use|go\s+with)|decided|decision\s+is|chose|choose|chosen|opt(?:ed)?\s+for|settled?\s+on|switch(?:ed|ing)?\s+to|stick(?:ing)?\s+with)\s+(?:to\s+)?([`'"]?[\w@./-]+)?/i;
/** Where something goes or what is used: "tokens go in Postgres", "we use X". */
const PLACEMENT =
  /\b(?:use[sd]?|using|store[sd]?|keep|kept|put|go(?:es)?\s+(?:in|into|to)|live\s+in|belongs?\s+in|deploy(?:ed)?\s+(?:to|on)|host(?:ed)?\s+on|move[sd]?\s+to|migrate[sd]?\s+to)\s+([`'"]?[\w@./-]+)?/i;
/** The rejected alternative: "X, not Y", "X instead of Y", "X rather than Y". */
const CONTRAST = /(?:,\s*(?:and\s+|but\s+)?not|\binstead\s+of|\brather\s+than)\s+([`'"]?[\w@./-]+)/i;
const REASON = /\b(?:because|since|so\s+that|due\s+to|given\s+that)\b|:\s+\S|\s[—–]\s/i;
const REASON_START = /^(?:because|since|that's because|this is because|the reason|it's because|we need|otherwise)\b/i;

/** Ports, host:port, URLs, IP addresses, versions and absolute paths: the stuff of environment facts. */
const ENV_TOKENS: readonly RegExp[] = [
  /\bport\s+(\d{2,5})\b/gi,
  /\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|[a-z0-9-]+(?:\.[a-z0-9-]+)+):(\d{2,5})\b/gi,
  /\bhttps?:\/\/[^\s`'")]+/gi,
  /\b\d{1,3}(?:\.\d{1,3}){3}\b/g,
  /\b(?:v|version\s+)\d+(?:\.\d+)+\b/gi,
  /(?:^|[\s`(])((?:~|\/(?:home|Users|usr|etc|var|opt|srv|mnt|tmp|data))\/[\w./-]+)/g,
];
/** Where something is or runs: "runs in Docker on", "listens on", "is at". */
const STATIVE =
  /\b(?:(?:runs?|running|listens?|listening|lives?|living|sits?|hosted|served|installed|located|mounted|exposed|bound|reachable|available)\s+(?:on|in|at|under|inside|from|via)|(?:is|are)\s+(?:at|on|in|under)|points?\s+(?:to|at)|pinned\s+to|we(?:'re|\s+are)\s+on|(?:is|are)\s+(?:on\s+)?version)\b/i;

/**
 * Decisions (a choice with its reason, or a rejected alternative with its reason) and
 * environment facts (a port, host, URL, version or path with a verb saying where something
 * is or runs), from what the user and the assistant wrote. Questions and the user's standing
 * directives are left to the preference extractor. A decision without a reason takes the
 * next sentence as its reason when that sentence names one of the alternatives or starts
 * with "because".
 */
export function extractStatements(texts: readonly TranscriptText[]): CaptureCandidate[] {
  const out: CaptureCandidate[] = [];
  const seenFacts = new Set<string>();
  for (const text of texts) {
    const source = text.role;
    const sentences = splitSentences(text.text);
    for (let i = 0; i < sentences.length; i += 1) {
      const sentence = sentences[i] as string;
      if (sentence.endsWith("?") || (source === "user" && directivesIn(sentence).length > 0)) continue;
      const keys = envKeys(sentence);
      if (keys.length > 0 && STATIVE.test(sentence)) {
        if (keys.every((key) => seenFacts.has(key))) continue;
        for (const key of keys) seenFacts.add(key);
        out.push(candidate({ kind: "fact", content: tidyStatement(sentence), source, line: text.line, reason: `environment statement by the ${source}` }));
        continue;
      }
      const decision = decisionIn(sentence);
      if (!decision) continue;
      let content = sentence;
      const next = sentences[i + 1];
      if (!REASON.test(sentence) && next !== undefined && !next.endsWith("?") && explains(next, decision.alternatives)) {
        content = `${sentence} ${next}`;
        i += 1;
      }
      out.push(
        candidate({
          kind: "decision",
          content: tidyStatement(content),
          concepts: decision.alternatives,
          source,
          line: text.line,
          reason: `choice with a reason, stated by the ${source}`,
        }),
      );
    }
  }
  return out;
}

interface Decision {
  /** The chosen and the rejected option, as named. */
  alternatives: string[];
}

function decisionIn(sentence: string): Decision | null {
  const choice = CHOICE.exec(sentence);
  const contrast = CONTRAST.exec(sentence);
  const placement = PLACEMENT.exec(sentence);
  const isDecision = choice ? contrast !== null || REASON.test(sentence) : contrast !== null && placement !== null && REASON.test(sentence);
  if (!isDecision) return null;
  const chosen = (choice ?? placement)?.[1];
  const alternatives = [chosen, contrast?.[1]].map(bareWord).filter((w) => w.length > 1 && !STOP_WORDS.has(w.toLowerCase()));
  return { alternatives: [...new Set(alternatives)] };
}

const STOP_WORDS = new Set(["the", "a", "an", "it", "this", "that", "them", "to", "of", "in", "on", "and", "or", "for", "with", "one"]);

function bareWord(word: string | undefined): string {
  return (word ?? "").replace(/^[`'"]+|[`'".,:;]+$/g, "");
}

function explains(sentence: string, alternatives: readonly string[]): boolean {
  if (REASON_START.test(sentence)) return true;
  return alternatives.some((word) => new RegExp(`(?:^|[^\\w-])${escapeRegExp(word)}(?:$|[^\\w-])`, "i").test(sentence));
}

/** Normalised environment tokens of a sentence: "port:5433", "url:https://...", "path:/etc/x". */
function envKeys(sentence: string): string[] {
  const keys: string[] = [];
  ENV_TOKENS.forEach((pattern, index) => {
    for (const match of sentence.matchAll(pattern)) {
      const value = (match[1] ?? match[0]).trim().toLowerCase();
      keys.push(index < 2 ? `port:${value}` : `${index}:${value}`);
    }
  });
  return keys;
}
