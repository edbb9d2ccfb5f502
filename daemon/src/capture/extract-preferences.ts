import { type CaptureCandidate, candidate, tidyStatement } from "./candidate.js";
import { splitSentences } from "./sentences.js";
import type { TranscriptText } from "./transcript-event.js";

/** Words that make a statement a standing rule rather than an instruction for the task at hand. */
const STANDING = /\b(?:from now on|going forward|from here on|(?:in|for) (?:the )?future|every ?time|whenever|by default|as a (?:general )?rule)\b/i;
/**
 * "always"/"never" in the imperative position (at a clause start, or after "please", "and",
 * "you should"...): "always use pnpm", "and never push to main"; not "it always fails".
 */
const IMPERATIVE_ALWAYS =
  /(?:^|[,:;(]\s*|\b(?:and|but|or|please|then|so|to|you should|you must|make sure to|from now on|going forward)\s+)(?:always|never)\s+(?!been\b|seen\b|had\b|heard\b|mind\b)\w/i;
const STATED_TASTE = /\b(?:I|we)\s+(?:(?:much|really|strongly|generally)\s+)?(?:prefer|'d rather|would rather|like it when|hate it when|don't like it when)\b|^(?:please\s+)?(?:prefer|avoid)\s/i;
/** A lead-in that announces a list of rules: "Two standing rules for this repo: a, and b." */
const RULE_LEAD_IN = /\b(?:rules?|conventions?|guidelines?|preferences?|requirements?|polic(?:y|ies))\b/i;
/** Preferences meant for every project rather than this one. */
const GLOBAL_SCOPE = /\b(?:in (?:every|all (?:my |of my |our )?|any )(?:projects?|repos?|repositories|codebases?)|everywhere|globally|across (?:all )?projects)\b/i;
const CLAUSE_BREAK = /;\s+|,\s+and\s+(?=\S)|,\s+(?=(?:always|never|don't|do not)\b)/i;

/**
 * The standing preferences a user stated in their prompts, one per directive: a sentence with
 * "from now on", "always"/"never" as an imperative or "I prefer"; or each clause after a
 * lead-in that announces rules. Questions are never preferences.
 */
export function extractPreferences(texts: readonly TranscriptText[]): CaptureCandidate[] {
  const out: CaptureCandidate[] = [];
  const seen = new Set<string>();
  for (const text of texts) {
    if (text.role !== "user") continue;
    for (const sentence of splitSentences(text.text)) {
      for (const directive of directivesIn(sentence)) {
        const content = tidyStatement(directive);
        const key = content.toLowerCase();
        if (content === "" || seen.has(key)) continue;
        seen.add(key);
        out.push(
          candidate({
            kind: "preference",
            content,
            source: "user",
            line: text.line,
            scope: GLOBAL_SCOPE.test(sentence) ? "global" : "project",
            reason: "standing directive in a user prompt",
          }),
        );
      }
    }
  }
  return out;
}

/** The directives a sentence states: none, the sentence itself, or the clauses of a rule list. */
export function directivesIn(sentence: string): string[] {
  if (sentence.trim().endsWith("?")) return [];
  const colon = sentence.indexOf(": ");
  const leadIn = colon > 0 ? sentence.slice(0, colon) : "";
  if (leadIn !== "" && RULE_LEAD_IN.test(leadIn) && !IMPERATIVE_ALWAYS.test(leadIn)) {
    return sentence
      .slice(colon + 2)
      .split(CLAUSE_BREAK)
      .map((clause) => clause.trim())
      .filter((clause) => clause.split(/\s+/).length >= 2);
  }
  if (!isDirective(sentence)) return [];
  // "Always use tabs; never commit generated files." holds two rules.
  const parts = sentence.split(/;\s+/);
  if (parts.length > 1 && parts.every(isDirective)) return parts;
  return [sentence];
}

function isDirective(text: string): boolean {
  return STANDING.test(text) || IMPERATIVE_ALWAYS.test(text) || STATED_TASTE.test(text);
}
