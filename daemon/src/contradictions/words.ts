/**
 * The words two memories must share to be about the same thing: content words, lower case and
 * stemmed, with the software thesaurus's synonyms folded together ("db" and "database" are one
 * word) and a narrower term also standing for its broader one ("Postgres" is also a "database").
 */
import { stem } from "../keywords/porter-stem.js";
import { SOFTWARE_THESAURUS } from "../recall/software-thesaurus.js";

/** A word as a subject anchor: its canonical stem, and the broader terms it also stands for. */
export interface AnchorWord {
  stem: string;
  broader: readonly string[];
}

/**
 * Words that say nothing about what a memory is about: function words, the verbs every
 * statement uses, and the words of change ("moved", "now") that the claims read separately.
 */
const FILLER = new Set(
  ("a an the this that these those it its we our us you your they their them he she his her i me my mine " +
    "is are was were be been being am do does did done has have had having will would shall should can could may " +
    "might must not no nor never also too very just only still again ever all any each every some both either " +
    "neither few more most other such own same so than then there here when where which who whom whose what why " +
    "how of to in on at by for from with without into onto over under about above below between through during " +
    "after before since until while because as if or and but yet via per up down out off away back " +
    "use uses used using run runs ran running go goes went going get gets got make makes made keep keeps kept " +
    "set sets put take takes took come comes came need needs needed want wants like likes see let lets " +
    "now currently anymore longer new old thing things way ways one ones lot lots bit actually really already " +
    "moved move moves switched switch switches migrated migrate replaced replace changed change changes " +
    "decided decide dropped drop removed remove stopped stop started start turned turn instead rather " +
    "since today yesterday last week month year sprint day days ago recently soon later always usually often " +
    "ve ll re don doesn didn isn aren wasn weren won wouldn shouldn " +
    "zero one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred " +
    "once twice thrice first second third").split(" "),
);

/** Pronoun subjects: a sentence that starts with one has its subject after the verb. */
export const PRONOUN_SUBJECTS = new Set(["i", "we", "you", "they", "he", "she", "it", "our", "my", "their", "this", "that"]);

interface ThesaurusIndex {
  /** Each member's canonical word (the first member of its synonym line). */
  canonical: Map<string, string>;
  /** Each narrower term's broader terms, canonical. */
  broader: Map<string, string[]>;
}

/** Single-word thesaurus members only: anchors are single words. */
function indexThesaurus(lines: readonly string[]): ThesaurusIndex {
  const canonical = new Map<string, string>();
  const broader = new Map<string, string[]>();
  const single = (member: string) => {
    const words = member.trim().toLowerCase().split(/\s+/);
    return words.length === 1 && words[0] !== "" ? stem(words[0] as string) : undefined;
  };
  for (const line of lines.filter((l) => !l.includes(">"))) {
    const members = line.split(",").map(single).filter((m): m is string => m !== undefined);
    const head = members[0];
    if (head === undefined) continue;
    for (const member of members) if (!canonical.has(member)) canonical.set(member, head);
  }
  const canon = (word: string) => canonical.get(word) ?? word;
  for (const line of lines.filter((l) => l.includes(">"))) {
    const [broad, narrow] = line.split(">") as [string, string];
    const broadWord = single(broad);
    if (broadWord === undefined) continue;
    for (const member of narrow.split(",").map(single)) {
      if (member === undefined) continue;
      const list = broader.get(canon(member)) ?? [];
      if (!list.includes(canon(broadWord))) list.push(canon(broadWord));
      broader.set(canon(member), list);
    }
  }
  return { canonical, broader };
}

/** Words for the same bound that the recall thesaurus leaves out: "max line length" and "line length limit" are one setting. */
const BOUND_SYNONYMS = ["limit, max, maximum, cap, ceiling, upper bound", "minimum, min, floor, lower bound"];

const THESAURUS = indexThesaurus([...SOFTWARE_THESAURUS, ...BOUND_SYNONYMS]);

/** Canonical stems of the words seen most recently: a store's memories say the same words again and again. */
const STEMS = new Map<string, string>();
const STEMS_KEPT = 20_000;

/** The canonical stem of one lower-case word. */
export function canonicalStem(word: string): string {
  let canonical = STEMS.get(word);
  if (canonical === undefined) {
    const stemmed = stem(word);
    canonical = THESAURUS.canonical.get(stemmed) ?? stemmed;
    if (STEMS.size >= STEMS_KEPT) STEMS.clear();
    STEMS.set(word, canonical);
  }
  return canonical;
}

const NO_BROADER: readonly string[] = Object.freeze([]);
/**
 * One frozen AnchorWord per canonical stem, shared by every clause that holds it: a claims cache of
 * thousands of memories held one object per word per clause (about half of a memory's claims).
 * Bounded by the words the stemmer has seen, as STEMS is.
 */
const ANCHORS = new Map<string, AnchorWord>();

function anchorWord(canonical: string): AnchorWord {
  let word = ANCHORS.get(canonical);
  if (word === undefined) {
    word = Object.freeze({ stem: canonical, broader: THESAURUS.broader.get(canonical) ?? NO_BROADER });
    if (ANCHORS.size >= STEMS_KEPT) ANCHORS.clear();
    ANCHORS.set(canonical, word);
  }
  return word;
}

/** True for words that carry no subject (see FILLER). */
export function isFiller(word: string): boolean {
  return FILLER.has(word);
}

/**
 * The anchor words of a piece of text: its words of two or more letters (identifiers split at
 * "-", "_" and "." into their parts as well), filler left out, canonical and deduplicated.
 */
export function anchorWords(text: string): AnchorWord[] {
  const out = new Map<string, AnchorWord>();
  for (const raw of text.match(/[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*/g) ?? []) {
    const lower = raw.toLowerCase();
    const parts = lower.includes("-") || lower.includes("_") || lower.includes(".") ? [lower.replace(/[-_.]/g, ""), ...lower.split(/[-_.]/)] : [lower];
    for (const part of parts) {
      if (part.length < 2 || FILLER.has(part) || /^\d/.test(part)) continue;
      const canonical = canonicalStem(part);
      if (!out.has(canonical)) out.set(canonical, anchorWord(canonical));
    }
  }
  return [...out.values()];
}
