import type { RecalledMemoryJson } from "./proto-json.js";

/**
 * Words that say nothing about what a memory is about: English function words, chit-chat and
 * the verbs and nouns of every coding request ("fix the test in this file").
 */
const WEAK_WORDS = new Set(
  (
    "a about above after again all also am an and any are as at be because been before being but by can cannot could " +
    "did do does doing done don dont down each few for from further get got had has have having he her here hers him his " +
    "how i if in into is it its itself just let lets like me more most my no nor not now of off ok okay on once only or " +
    "other our ours out over own please same she should so some such than thank thanks that the their them then there " +
    "these they this those through to too under until up very was we were what when where which while who whom why will " +
    "with would yes yeah yep you your yours sure great cool nice good fine right alright hello hi hey go ahead continue " +
    "keep going proceed next done lgtm looks sounds perfect awesome one two see look make made need want try use using " +
    "add change update fix run check write code file files test tests thing things work works way new still again"
  ).split(" "),
);

/** At least this many meaningful words before a prompt is searched at all. */
const MIN_PROMPT_TERMS = 3;
/** A pointer must score at least this share of the best result. */
const RELATIVE_SCORE = 0.5;
/** Prompts are cut to this many characters before they are sent as a query. */
const MAX_QUERY_CHARS = 2000;

/** The meaningful, lower-cased words of a text, in order, without repeats. */
export function meaningfulTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_.\-/]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
  const terms = words.filter((word) => (word.length >= 3 || /\d/.test(word)) && !WEAK_WORDS.has(word));
  return [...new Set(terms)];
}

/**
 * The query to recall for a prompt, or null when the prompt should get no pointers at all:
 * slash commands, shell escapes, and short or chit-chat prompts ("ok, go ahead").
 */
export function promptQuery(prompt: string): string | null {
  const text = prompt.trim();
  if (text.startsWith("/") || text.startsWith("!")) return null;
  if (meaningfulTerms(text).length < MIN_PROMPT_TERMS) return null;
  return text.slice(0, MAX_QUERY_CHARS);
}

/** An identifier, path, code or number: one shared term of this sort is already specific. */
function isDistinctive(term: string): boolean {
  return /\d/.test(term) || /[_.\-/]/.test(term) || term.length >= 8;
}

/** Two words match when one is the other plus a short suffix (crude stemming: token/tokens, hash/hashed). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.startsWith(short) && long.length - short.length <= 3;
}

/** The prompt's terms that also occur in a text. */
export function sharedTerms(promptTerms: readonly string[], text: string): string[] {
  const words = meaningfulTerms(text);
  return promptTerms.filter((term) => words.some((word) => sameWord(term, word)));
}

/**
 * Picks the recalled memories worth a pointer. Stricter than explicit search, because it runs
 * on every prompt and noise there is the top complaint: a memory must be a direct match (not an
 * association), be found by keyword or through the entity graph (a vector hit alone is not
 * enough), score at least half of the best result, and share with the prompt either two
 * meaningful words or one identifier-like word (or have a graph path).
 */
export function selectPointers(
  prompt: string,
  memories: readonly RecalledMemoryJson[],
  alreadyInjected: ReadonlySet<string>,
  max = 3,
): RecalledMemoryJson[] {
  const direct = memories.filter((m) => !m.associated && typeof m.id === "string" && m.id !== "");
  const top = Math.max(0, ...direct.map((m) => m.score ?? 0));
  if (top <= 0) return [];
  const promptTerms = meaningfulTerms(prompt);
  return direct
    .filter((m) => {
      const explanation = m.explanation ?? {};
      const graphPath = explanation.graphPath ?? "";
      if ((explanation.keywordRank ?? 0) <= 0 && graphPath === "") return false;
      if ((m.score ?? 0) < top * RELATIVE_SCORE) return false;
      if (alreadyInjected.has(m.id as string)) return false;
      const shared = sharedTerms(promptTerms, m.summary ?? "");
      return shared.length >= 2 || shared.some(isDistinctive) || (graphPath !== "" && shared.length >= 1);
    })
    .slice(0, max);
}
