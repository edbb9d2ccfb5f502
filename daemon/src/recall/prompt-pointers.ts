import { authorLabel, type Authorship, OTHERS_WROTE } from "../memory/author.js";

/**
 * Which recalled memories deserve a pointer in front of a user's prompt. This runs on every
 * prompt an agent sends, and noise injected there is the most common complaint about memory
 * tools, so the bar is stricter than explicit search: silence is the usual answer.
 */

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
/** A pointer must score at least this share of the best result: a second or third place that far behind is rarely relevant. */
const RELATIVE_SCORE = 0.8;
/** A pointer's meaning agrees with the prompt when vector search ranks it this high or higher. */
const AGREEING_VECTOR_RANK = 5;
/** A pointer leads clearly when the next candidate scores at most this share of its score. */
const CLEAR_LEAD = 0.7;
/** Sharing this many meaningful words with the prompt is corroboration enough on its own. */
const MANY_SHARED = 4;
/**
 * Prompts are cut to this many characters before anything else: the start of a prompt says what
 * it is about, and a pasted log of 100 KiB must cost no more than a sentence.
 */
const MAX_QUERY_CHARS = 2000;

/** A memory recall found for a prompt, as plain values. */
export interface PointerCandidate {
  id: string;
  /** One line of the memory. */
  summary: string;
  /** Everything the memory says (content, problem, solution, concepts, files): where shared words are looked for. */
  text: string;
  /** The fused, lifecycle-weighted score. */
  score: number;
  /** Rank among the keyword (BM25) candidates, 1-based; 0 when keyword search did not find it. */
  keywordRank: number;
  /** How the entity graph reached it; empty when it did not. */
  graphPath: string;
  /** Rank among the vector candidates, 1-based; 0 when vector search did not find it (or did not run). */
  vectorRank: number;
}

/** A candidate that cleared the bar, with the reason in words. */
export type Pointer<T extends PointerCandidate> = T & { why: string };

/** The meaningful, lower-cased words of a text, in order, without repeats. */
export function meaningfulTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_.\-/]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
  const terms = words.filter((word) => (word.length >= 3 || /\d/.test(word)) && !WEAK_WORDS.has(word));
  return [...new Set(terms)];
}

/**
 * The query to recall for a prompt, or null when the prompt should get no pointers at all:
 * slash commands, shell escapes, and short or chit-chat prompts ("ok, go ahead") that name no
 * identifier.
 */
export function promptQuery(prompt: string): string | null {
  const text = prompt.trim().slice(0, MAX_QUERY_CHARS).trim();
  if (text.startsWith("/") || text.startsWith("!")) return null;
  const terms = meaningfulTerms(text);
  // An identifier ("what was TM-530 about?") says what the prompt is about in one word.
  if (terms.length < MIN_PROMPT_TERMS && !terms.some(isIdentifier)) return null;
  return text;
}

/** An identifier, path, code or number: one shared term of this sort is already specific. */
function isDistinctive(term: string): boolean {
  return isIdentifier(term) || term.length >= 8;
}

/** A path, code or snake_case name: a word with a digit or a separator inside. */
function isIdentifier(term: string): boolean {
  return /\d|[_.\-/]/.test(term);
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
 * Picks the recalled memories worth a pointer, best first, from the `max` best candidates not
 * already injected into the session (so an injected memory does not take a slot, and nothing
 * further down the ranking is dug up). Each must pass three tests, measured on the dev set's
 * prompts with bench:recall (Suggest mode), where the first place alone is relevant 7 times in
 * 10 and a second place within 0.8 of it 4 times in 10:
 * - it is a direct match: found by keyword or through the entity graph (a vector hit alone is
 *   not enough), scoring at least 0.8 of the best result (injected ones included);
 * - it shares with the prompt two meaningful words, or one identifier-like word, or one word
 *   and a graph path;
 * - something corroborates it: vector search ranks it in its top 5 (the meaning agrees too),
 *   or it leads the next candidate clearly, or it shares four words or more with the prompt, or
 *   an identifier (a path, a code, a snake_case name), which is specific on its own.
 */
export function selectPointers<T extends PointerCandidate>(
  query: string,
  candidates: readonly T[],
  alreadyInjected: ReadonlySet<string>,
  max: number,
): Pointer<T>[] {
  const top = Math.max(0, ...candidates.map((c) => c.score));
  if (top <= 0) return [];
  const promptTerms = meaningfulTerms(query);
  const nextScore = new Map(candidates.map((c, i) => [c.id, candidates[i + 1]?.score ?? 0]));
  return candidates
    .filter((c) => !alreadyInjected.has(c.id))
    .slice(0, max)
    .flatMap((c) => {
      if (c.keywordRank <= 0 && c.graphPath === "") return [];
      if (c.score < top * RELATIVE_SCORE) return [];
      const shared = sharedTerms(promptTerms, c.text);
      const clears = shared.length >= 2 || shared.some(isDistinctive) || (c.graphPath !== "" && shared.length >= 1);
      const agrees = c.vectorRank > 0 && c.vectorRank <= AGREEING_VECTOR_RANK;
      const corroborated =
        agrees || (nextScore.get(c.id) ?? 0) <= CLEAR_LEAD * c.score || shared.length >= MANY_SHARED || shared.some(isIdentifier);
      return clears && corroborated ? [{ ...c, why: pointerReason(shared, c.graphPath, agrees) }] : [];
    });
}

/** "shares refresh, tokens; close in meaning" or "shares stripe; entity graph: PAY-1423 -> stripe". */
function pointerReason(shared: readonly string[], graphPath: string, agrees: boolean): string {
  return [`shares ${shared.join(", ")}`, ...(graphPath === "" ? [] : [`entity graph: ${graphPath}`]), ...(agrees ? ["close in meaning"] : [])].join("; ");
}

/** The context text for the pointers: a header and one line each ("- ID (fact, from bo (team core)): …" for another person's), or "" for none. */
export function renderPointers(pointers: readonly ({ id: string; kind: string; line: string } & Authorship)[]): string {
  if (pointers.length === 0) return "";
  const lines = pointers.map((p) => {
    const author = authorLabel(p);
    return `- ${p.id} (${p.kind}${author === "" ? "" : `, ${author}`}): ${p.line}`;
  });
  const others = lines.length > 0 && pointers.some((p) => authorLabel(p) !== "") ? [OTHERS_WROTE] : [];
  return ["memd has memories that bear on this prompt (full text: the memory_search tool with ids, or memctl recall --depth 2 --ids ID,...):", ...others, ...lines].join("\n");
}
