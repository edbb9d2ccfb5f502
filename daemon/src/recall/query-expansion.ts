import type { QueryPhrase, WeightedPhrase } from "../keywords/keyword-index.js";
import { queryChunks } from "../keywords/query-phrases.js";
import { tokenize } from "../keywords/tokenize.js";
import { SOFTWARE_THESAURUS } from "./software-thesaurus.js";
import { type Synonym, WordNet } from "./wordnet.js";

/** A thesaurus compiled to the search's tokens: what each phrase expands to. */
export type Thesaurus = ReadonlyMap<string, readonly QueryPhrase[]>;

/**
 * Compiles thesaurus lines (see SOFTWARE_THESAURUS): "a, b, c" makes every member expand to the
 * others; "a > x, y" makes `a` expand to x and y only. Members are tokenized as keyword search
 * tokenizes text, so matching is on stems.
 */
export function compileThesaurus(lines: readonly string[]): Thesaurus {
  const expansions = new Map<string, QueryPhrase[]>();
  const add = (from: QueryPhrase, to: QueryPhrase) => {
    const key = from.join(" ");
    if (key === to.join(" ")) return;
    const known = expansions.get(key) ?? [];
    if (!known.some((phrase) => phrase.join(" ") === to.join(" "))) known.push(to);
    expansions.set(key, known);
  };
  for (const line of lines) {
    const narrower = line.split(">");
    if (narrower.length > 2) throw new Error(`thesaurus line "${line}" has more than one ">"`);
    const members = (text: string) => text.split(",").map((member) => tokenize(member)).filter((tokens) => tokens.length > 0);
    if (narrower.length === 2) {
      const [broad] = members(narrower[0] as string);
      if (!broad) throw new Error(`thesaurus line "${line}" has no term before ">"`);
      for (const term of members(narrower[1] as string)) add(broad, term);
    } else {
      const group = members(line);
      for (const from of group) for (const to of group) add(from, to);
    }
  }
  return expansions;
}

/** Where a query's synonyms come from: the software thesaurus, and a general lexicon's synonyms of a word. */
export interface Vocabulary {
  thesaurus: Thesaurus;
  synonyms?: (word: string) => readonly Synonym[];
}

/** The most phrases a query's expansion adds: enough for a few synonym groups. */
const MAX_EXPANSIONS = 24;
/**
 * A general synonym counts for at most this much of the query's own word, times the share of
 * the word's uses in the sense it shares (see WordNet): "film" for "movie" nearly half, "level"
 * for "degree" (an academic degree, mostly) less.
 */
const LEXICON_WEIGHT = 0.5;
/** Senses that carry less of a word's uses than this add no synonym: a rare sense must not steer the search. */
const MIN_SENSE_SHARE = 0.25;
/** The most synonyms one word of the query adds from the lexicon. */
const SYNONYMS_PER_WORD = 4;

let defaultVocabulary: Vocabulary | undefined;

/** The shipped vocabulary: the software thesaurus and WordNet 3.1, opened on first use. */
function shippedVocabulary(): Vocabulary {
  if (!defaultVocabulary) {
    let wordnet: WordNet | undefined;
    try {
      wordnet = WordNet.installed();
    } catch {
      // A dependency missing from a broken install costs the general synonyms, not every search.
      wordnet = undefined;
    }
    defaultVocabulary = { thesaurus: compileThesaurus(SOFTWARE_THESAURUS), synonyms: wordnet && ((word) => (wordnet as WordNet).synonyms(word)) };
  }
  return defaultVocabulary;
}

/** The software thesaurus alone, for searches a general lexicon's senses would only widen (contradictions). */
export function thesaurusVocabulary(): Vocabulary {
  return { thesaurus: shippedVocabulary().thesaurus };
}

/**
 * The phrases to search besides a query's own, each with its weight: for every run of the
 * query's tokens that is a thesaurus entry, its expansions at full weight; for a query the
 * thesaurus knows nothing of, the lexicon's synonyms of its words and word pairs, weighed by
 * how often the word is meant in the sense they share. Nothing the query already holds is added.
 */
export function expandQuery(query: string, vocabulary: Vocabulary = shippedVocabulary()): Expansion {
  const tokens = tokenize(query);
  const present = new Set(tokens);
  const collect = (fill: (add: (phrase: QueryPhrase, weight: number) => void) => void): WeightedPhrase[] => {
    const added = new Map<string, WeightedPhrase>();
    fill((phrase, weight) => {
      const key = phrase.join(" ");
      if (phrase.length === 0 || phrase.every((token) => present.has(token)) || (added.get(key)?.weight ?? 0) >= weight) return;
      added.set(key, { tokens: phrase, weight });
    });
    return [...added.values()].sort((a, b) => b.weight - a.weight).slice(0, MAX_EXPANSIONS);
  };
  const thesaurus = collect((add) => {
    for (let length = 3; length >= 1; length -= 1) {
      for (let i = 0; i + length <= tokens.length; i += 1) {
        for (const phrase of vocabulary.thesaurus.get(tokens.slice(i, i + length).join(" ")) ?? []) add(phrase, 1);
      }
    }
  });
  const { synonyms } = vocabulary;
  const lexicon = collect((add) => {
    // The lexicon backs the thesaurus: where the trade's own vocabulary knows the query, a
    // dictionary's senses of its words (a "build" of a body, a "release" from prison) only blur it.
    if (!synonyms || thesaurus.length > 0) return;
    for (const word of lexiconWords(query)) {
      for (const { lemma, share } of synonyms(word).filter((s) => s.share >= MIN_SENSE_SHARE).slice(0, SYNONYMS_PER_WORD)) {
        add(tokenize(lemma), LEXICON_WEIGHT * Math.min(1, share));
      }
    }
  });
  return { thesaurus, lexicon };
}

/** A query's synonyms: the software thesaurus's and the general lexicon's, searched as sources of their own. */
export interface Expansion {
  thesaurus: WeightedPhrase[];
  lexicon: WeightedPhrase[];
}

/** The query's words worth looking up in a lexicon, and its pairs of adjacent words ("battery life"). */
function lexiconWords(query: string): string[] {
  const words = (queryChunks(query) ?? []).filter((parts) => parts.length === 1 && /^[a-z]{3,}$/.test(parts[0] as string)).map((parts) => parts[0] as string);
  const pairs = words.slice(1).map((word, i) => `${words[i]} ${word}`);
  return [...pairs, ...words];
}
