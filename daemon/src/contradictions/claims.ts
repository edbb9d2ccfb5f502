/**
 * What a memory claims, read clause by clause: the values it names (a tool from a slot of
 * alternatives, a number with what it counts, a setting, a location, a name), how it holds each
 * (see stance.ts), and what each clause is about (its anchor words, the words of its subject,
 * its scope: an environment, a platform, a language). Pure: text in, plain values out.
 */
import { stem } from "../keywords/porter-stem.js";
import { extractEntities } from "../recall/entities.js";
import { activeSlots, findAlternatives } from "./alternatives.js";
import { findQuantities, type Quantity } from "./quantities.js";
import { type Stance, saysChange, stanceAt } from "./stance.js";
import { type AnchorWord, anchorWords, canonicalStem, isFiller, PRONOUN_SUBJECTS } from "./words.js";

export type ClaimValue =
  | { type: "choice"; slots: readonly string[]; value: string }
  | { type: "quantity"; quantity: Quantity; labels: ReadonlySet<string>; unit?: string; per?: string }
  | { type: "setting"; key: string; value: string }
  | { type: "location"; form: "url" | "endpoint" | "file"; value: string }
  | { type: "name"; value: string; around: ReadonlySet<string> };

export interface Mention {
  value: ClaimValue;
  stance: Stance;
  /** The words as written, for a reason a person reads. */
  raw: string;
}

export interface Clause {
  text: string;
  mentions: Mention[];
  /** The clause's anchor words, its values left out. */
  anchors: AnchorWord[];
  /** The anchor words of its subject: the words before its verb (after it, when it opens with "we" or a verb). */
  head: AnchorWord[];
  /** Environment, platform and language words, by category. */
  scopes: ReadonlyMap<string, ReadonlySet<string>>;
  /** A "because" or "since" clause: it explains, it does not claim. */
  reason: boolean;
  /** Phrases the clause says are gone ("stopped using Conventional Commits"), lower case, whatever they name. */
  gone: readonly string[];
  /** The clause states an exception ("uploads override the timeout"), which a default does not contradict. */
  exception: boolean;
}

export interface MemoryClaims {
  clauses: Clause[];
  /** The memory says that something changed ("moved to", "now", "no longer"). */
  changes: boolean;
}

const SCOPES: Record<string, readonly string[]> = {
  environment: ["dev", "development", "local", "locally", "staging", "stage", "production", "prod", "preview", "qa", "sandbox"],
  platform: ["ios", "android", "web", "mobile", "desktop", "frontend", "backend", "admin", "docs", "marketing", "customer", "e2e", "unit", "integration", "api", "transactional", "internal", "public"],
  language: ["python", "typescript", "javascript", "golang", "java", "rust", "ruby", "kotlin", "swift", "php", "scala", "elixir"],
};
const SCOPE_OF = new Map(Object.entries(SCOPES).flatMap(([category, words]) => words.map((w) => [w, category] as const)));
const SCOPE_ALIASES: Record<string, string> = { development: "dev", locally: "local", stage: "staging", prod: "production", golang: "go" };

/** Words that end a subject: forms of be and have, modals, prepositions, and the verbs memories are written with. */
const SUBJECT_ENDS: ReadonlySet<string> = new Set(
  ("is are was were be been am has have had will would can could must should may might do does did " +
    "in on at of for with from to by via into onto behind under over through against after before since until " +
    "runs run uses use lives live listens listen goes go talks talk sends send serves serve hits hit holds hold keeps keep " +
    "stores store needs need requires require gets get takes take opens open returns return answers answer handles handle " +
    "calls call expires expire moved move switched switch migrated migrate replaced replace changed change dropped drop " +
    "removed remove deleted delete stopped stop started start turned turn ships ship deploys deploy builds build bundles " +
    "lints lint formats format tests publishes publish pushes push processes process calculates generates renders render " +
    "caches scrapes samples escalates creates defines declares locks pins raised raise lowered increased decreased reduced " +
    "upgraded scaled repartitioned verifies proxies purges receives reads writes produces shares powers comes happens " +
    "shows follows reaches hangs attends tries watches completed dedicates spots brings brought meets met loves enjoys " +
    "plans thinks wants prefers indents points left costs limits auto-deploys persists applies enforces exposes pings " +
    "keyed tracks talks").split(" ").map(stem),
);
const OPENING_VERBS = /^(?:use|run|keep|format|indent|prefer|always|never|open|start|import|moved|switched|migrated|replaced|dropped|removed|fixed|added|repartitioned|upgraded|set|write|avoid|don't|do)$/i;

/** What stands before a port number: "port 5432", "the db port is 5433", "listens on 6379". */
const PORT_BEFORE = /\bports?(?:\s+(?:is|was|are|=|:|of|to|at|number|now|changed to|moved to))*\s*$|\blisten(?:s|ing)?\s+on(?:\s+port)?\s*$/i;
/** "stopped using Conventional Commits", "the API no longer uses sharp": the words of what is gone, up to the next filler word. */
const GONE_PHRASE = /\b(?:stopped using|stop using|no longer uses?|no longer using|no longer need|dropped|removed|ditched|got rid of|abandoned|moved off|migrated off)\s+(?:(?:the|our|a|an|all)\s+)?([A-Za-z0-9][\w.@/+-]*(?:\s+[A-Za-z0-9][\w.@/+-]*){0,2})/gi;

/**
 * How much of a memory's text its claims are read from. A memory that states something states it
 * near its start; past this are transcripts and sessions (LongMemEval's run to 40,000 characters),
 * whose claims took about 100 ms a memory to read and judge and held the event loop for seconds
 * on an import.
 */
export const CLAIM_TEXT_CHARS = 2048;

/** Reads a memory's claims (its content up to CLAIM_TEXT_CHARS; episodes' problem and solution are context, not claims). */
export function readClaims(fullContent: string): MemoryClaims {
  const content = fullContent.slice(0, CLAIM_TEXT_CHARS);
  const memoryWords = lowerWords(content);
  const clauses = splitClauses(content).map((part) => readClause(part.text, part.reason, memoryWords));
  // "I love Emma's recipes; I've tried two of them": what "them" counts is in the clause before.
  for (const [i, clause] of clauses.entries()) {
    const previous = clauses[i - 1];
    if (!previous || !/\b(?:them|it|they|those|these)\b/i.test(clause.text)) continue;
    clause.mentions = clause.mentions.map((m) =>
      m.value.type === "quantity" ? { ...m, value: { ...m.value, labels: new Set([...m.value.labels, ...previous.anchors.map((w) => w.stem)]) } } : m,
    );
  }
  return { clauses, changes: saysChange(content) || clauses.some((c) => c.mentions.some((m) => m.stance === "current" || m.stance === "left")) };
}

/** The lower-case words of a text, and the parts of its hyphenated ones. */
function lowerWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9][a-z0-9-]*/g) ?? []).flatMap((w) => [w, ...w.split("-")]));
}

/** Sentences, and the "because"/"since" clauses inside them, split off and marked as reasons. */
function splitClauses(text: string): { text: string; reason: boolean }[] {
  const sentences = text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s+(?=[A-Z"'(/`\d])|;\s+|\s+[—–]\s+|\s+-\s+|,?\s+(?:but|whereas|while)\s+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
  return sentences.flatMap((sentence) => {
    const [main, ...reasons] = sentence.split(/,?\s+(?:because|since|so that|due to)\s+/i);
    return [{ text: main as string, reason: false }, ...reasons.map((r) => ({ text: r, reason: true }))];
  });
}

function readClause(text: string, reason: boolean, memoryWords: ReadonlySet<string>): Clause {
  const mentions: Mention[] = [];
  let blanked = text;
  const take = (start: number, end: number, value: ClaimValue) => {
    mentions.push({ value, stance: stanceAt(text, start, end), raw: text.slice(start, end) });
    blanked = blanked.slice(0, start) + " ".repeat(end - start) + blanked.slice(end);
  };
  const words = lowerWords(text);
  for (const m of text.matchAll(/(?<![\w-])(--?[a-z][\w-]*|[A-Za-z_][\w.]*)=([^\s,;)]+)/g)) {
    const key = (m[1] as string).replace(/^-+/, "").toLowerCase();
    const [quantity] = findQuantities(m[2] as string);
    const value: ClaimValue = quantity ? { type: "quantity", quantity, labels: labelSet(key) } : { type: "setting", key, value: (m[2] as string).toLowerCase() };
    take(m.index ?? 0, (m.index ?? 0) + m[0].length, value);
  }
  // Read once: names are taken last, from what the values before them left of the clause.
  const entities = extractEntities(text);
  for (const entity of entities) {
    if (entity.type !== "url" && entity.type !== "file") continue;
    const at = blanked.toLowerCase().indexOf(entity.key);
    if (at < 0) continue;
    const form = entity.type === "url" ? "url" : entity.key.startsWith("/") ? "endpoint" : "file";
    // A URL's port is a port, said in another way: "localhost:3000" against "port 4000".
    for (const q of findQuantities(text.slice(at, at + entity.key.length))) {
      if (q.family === "port") mentions.push({ value: { type: "quantity", quantity: q, labels: new Set(["port"]) }, stance: stanceAt(text, at, at + entity.key.length), raw: q.raw });
    }
    take(at, at + entity.key.length, { type: "location", form, value: entity.key.replace(/^https?:\/\//, "") });
  }
  for (const found of findAlternatives(blanked, memoryWords)) {
    take(found.start, found.end, { type: "choice", slots: activeSlots(found, words), value: found.value });
  }
  // "answers 429": an HTTP status is a name, not a count.
  for (const m of blanked.matchAll(HTTP_STATUS)) {
    const at = (m.index ?? 0) + m[0].length - 3;
    take(at, at + 3, { type: "name", value: `http-${m[1]}`, around: NOTHING_AROUND });
  }
  // "twice a week": "a week" is the period of a rate, not a duration of its own.
  const quantities = findQuantities(blanked).filter((q) => !(q.family === "duration" && /^an?\s/i.test(q.raw) && RATE_BEFORE.test(blanked.slice(0, q.start))));
  for (const [i, quantity] of quantities.entries()) {
    // What a number counts is said between the numbers before and after it.
    const from = quantities[i - 1]?.end ?? 0;
    const to = quantities[i + 1]?.start ?? blanked.length;
    const value = quantityValue(text, blanked, quantity, blanked.slice(from, to));
    const period = PERIOD.exec(text.slice(quantity.end, to));
    const per = (period?.[1] ?? period?.[2])?.toLowerCase();
    take(quantity.start, quantity.end, value.type === "quantity" && per !== undefined ? { ...value, per: PERIODS[per] ?? per } : value);
  }
  // Longest first: "Kansas City Masterpiece BBQ" before the "BBQ" inside it.
  const names = entities.filter((e) => e.type !== "concept" && e.type !== "url" && e.type !== "file").sort((x, y) => y.key.length - x.key.length);
  for (const entity of names) {
    const at = blanked.toLowerCase().indexOf(entity.key);
    if (at < 0) continue;
    // The words next to a name, and its own, say what it is: "Sweet Baby Ray's" and "Kansas City Masterpiece BBQ" are both a BBQ sauce.
    const around = labelSet(`${lastWords(blanked.slice(0, at), 4)} ${entity.key} ${firstWords(blanked.slice(at + entity.key.length), 4)}`);
    take(at, at + entity.key.length, { type: "name", value: entity.key, around });
  }
  return {
    text, mentions, anchors: anchorWords(blanked), head: subjectWords(blanked), scopes: scopesOf(blanked), reason, gone: gonePhrases(text),
    exception: EXCEPTION.test(text),
  };
}

/**
 * Shared empty values: most clauses have no scope, no gone phrase, and an HTTP status nothing
 * around it, and a claims cache of thousands of memories held one empty object for each.
 */
const NOTHING_AROUND: ReadonlySet<string> = new Set();
const NO_SCOPES: ReadonlyMap<string, ReadonlySet<string>> = new Map();
const NOTHING_GONE: readonly string[] = Object.freeze([]);

const RATE_BEFORE = /\b(?:times?|twice|once|thrice|\d+(?:\.\d+)?)\s*$/i;
/** The period of a rate: "per minute", "a week", "each day", "daily". */
const PERIOD = /\b(?:per|a|an|each|every)\s+(second|minute|hour|day|week|month|year|night|morning)\b|\b(daily|weekly|monthly|hourly|nightly|yearly)\b/i;
const PERIODS: Record<string, string> = { daily: "day", weekly: "week", monthly: "month", hourly: "hour", nightly: "night", yearly: "year" };
const HTTP_STATUS = /\b(?:answers?|answered|returns?|returned|responds?(?: with)?|replies(?: with)?|status(?: code)?|got|gets?|hits?|throws?)\s+(?:an?\s+|with\s+(?:an?\s+)?)?([1-5]\d\d)(?![\w.])/gi;
const EXCEPTION = /\b(?:overrides?|overridden|overriding|except|exempt|unless|only for)\b/i;

function lastWords(text: string, count: number): string {
  return text.trim().split(/\s+/).slice(-count).join(" ");
}

function firstWords(text: string, count: number): string {
  return text.trim().split(/\s+/).slice(0, count).join(" ");
}

function gonePhrases(text: string): readonly string[] {
  const phrases = [...text.matchAll(GONE_PHRASE)].flatMap((m) => {
    const words: string[] = [];
    for (const word of (m[1] as string).toLowerCase().split(/\s+/)) {
      if (isFiller(word)) break;
      words.push(word.replace(/[.,;:]+$/, ""));
    }
    const phrase = words.join(" ");
    return phrase.length >= 3 ? [phrase] : [];
  });
  return phrases.length > 0 ? phrases : NOTHING_GONE;
}

/**
 * A number as what it counts: a version of the name before it ("Node 20", "Expo SDK 51"), a port,
 * or a quantity labelled by the words of its segment of the clause.
 */
function quantityValue(text: string, blanked: string, quantity: Quantity, segment: string): ClaimValue {
  const before = text.slice(0, quantity.start);
  const named = /(?:^|[\s(])([A-Za-z][\w.+#-]*?)(?:\s+(sdk|version|v))?\s*$/.exec(before);
  const name = named?.[1] ?? "";
  const versioned = name !== "" && (/^[A-Z]/.test(name) || /\.js$/i.test(name)) && !isFiller(name.toLowerCase());
  if ((quantity.family === "count" || quantity.family === "version") && versioned && !/^(?:in|on|at|by|of|to|for|with|from)$/i.test(name)) {
    const subject = canonicalStem(`${name}${named?.[2] ? ` ${named[2]}` : ""}`.toLowerCase());
    return { type: "quantity", quantity: { ...quantity, family: "version", value: String(quantity.value) }, labels: new Set([subject]) };
  }
  const plain = quantity.family === "version" ? { ...quantity, family: "count" as const, value: Number(quantity.value) } : quantity;
  const labels = labelSet(segment);
  // What a count counts, when the word after it says so: "50 lines" and "80 characters" are not one setting.
  const next = /^\s*([A-Za-z][\w-]*)/.exec(text.slice(quantity.end))?.[1]?.toLowerCase();
  const unit = plain.family === "count" && next !== undefined && !isFiller(next) ? canonicalStem(next) : undefined;
  // "twice a week" and "three times a week" count the same thing.
  if (/^(?:once|twice|thrice)$/i.test(quantity.raw)) labels.add(canonicalStem("times"));
  const port = PORT_BEFORE.test(blanked.slice(0, quantity.start).slice(-40)) && plain.family === "count";
  if (port) return { type: "quantity", quantity: { ...plain, family: "port" }, labels: new Set(["port", ...labels]) };
  return { type: "quantity", quantity: plain, labels, unit };
}

function labelSet(text: string): Set<string> {
  return new Set(anchorWords(text).map((a) => a.stem));
}

/** The words of the clause's subject: before its first verb, or after it when the clause opens with "we" or a verb. */
function subjectWords(text: string): AnchorWord[] {
  // "Speaking of my morning coffee, I have ..." and "By the way, ...": the subject follows the comma.
  const opening = /^\s*(?:[A-Za-z]+ing\b|by the way|btw|also|anyway|oh|so|well|actually|in (?:the )?(?:end|meantime))[^,]{0,60},\s*/i.exec(text);
  const tokens = text.slice(opening?.[0].length ?? 0).replace(/['’](?:ve|m|ll|re|d|s)\b/gi, "").match(/[A-Za-z][\w.-]*/g) ?? [];
  let i = 0;
  while (i < tokens.length && /^(?:the|a|an|our|in|on|for|all|its|their|by|default|currently|also)$/i.test(tokens[i] as string)) i += 1;
  const first = (tokens[i] ?? "").toLowerCase();
  // "I attend yoga twice a week": the subject is the speaker, which says nothing of what the memory is about.
  if (PRONOUN_SUBJECTS.has(first)) return [];
  if (OPENING_VERBS.test(first)) {
    i += 1;
    while (i < tokens.length && (isFiller((tokens[i] as string).toLowerCase()) || SUBJECT_ENDS.has(stem((tokens[i] as string).toLowerCase())))) i += 1;
  }
  const subject: string[] = [];
  for (; i < tokens.length && subject.length < 5; i += 1) {
    const word = (tokens[i] as string).toLowerCase();
    if (SUBJECT_ENDS.has(stem(word))) break;
    subject.push(tokens[i] as string);
  }
  return anchorWords(subject.join(" "));
}

function scopesOf(text: string): ReadonlyMap<string, ReadonlySet<string>> {
  const scopes = new Map<string, Set<string>>();
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const word = raw.endsWith("s") && SCOPE_OF.has(raw.slice(0, -1)) ? raw.slice(0, -1) : raw;
    const category = SCOPE_OF.get(word);
    if (category === undefined) continue;
    const set = scopes.get(category) ?? new Set<string>();
    set.add(SCOPE_ALIASES[word] ?? word);
    scopes.set(category, set);
  }
  // "Go" is a language only when written as the name.
  if (/\bGo\b(?!\s+(?:to|through|back|live|ahead))/.test(text)) scopes.set("language", new Set([...(scopes.get("language") ?? []), "go"]));
  return scopes.size > 0 ? scopes : NO_SCOPES;
}
