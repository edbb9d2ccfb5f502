/**
 * Whether a memory being written contradicts one already stored: both speak of the same subject
 * (shared anchor words, no different scope or subject) and say something different about it: a
 * different value for the same slot (auth provider, port, Node version, a setting, a location),
 * or one holds what the other says is gone. Pure: two memories' claims in, a finding out.
 */
import type { Clause, ClaimValue, MemoryClaims, Mention } from "./claims.js";
import { sameQuantity } from "./quantities.js";
import { asserts, type Stance, stanceAt } from "./stance.js";
import type { AnchorWord } from "./words.js";
import { escapeRegExp } from "../escape-reg-exp.js";

/** A finding at or above this score is a likely contradiction: reported at once, queued to settle. */
export const LIKELY_CONTRADICTION = 0.7;
/** Below LIKELY_CONTRADICTION and at or above this, the pair is worth a language model's judgement when one is configured. */
export const POSSIBLE_CONTRADICTION = 0.45;

export interface ContradictionFinding {
  /** How sure the rules are, 0 to 1 (see LIKELY_CONTRADICTION). */
  score: number;
  /** What the two disagree on: a slot ("auth provider"), "port", "Node version", a setting, a thing. */
  subject: string;
  /** What the newer memory says of it, and what the older one says. */
  newer: string;
  older: string;
}

/** Scores of the evidence kinds, before what raises them (the newer memory says something changed, more shared words). */
const SCORES = {
  left: 0.85,
  denied: 0.75,
  choice: 0.6,
  version: 0.65,
  port: 0.6,
  /** A number, with one word of what it counts in common; each further word in common adds `label` (up to three). */
  quantity: 0.5,
  label: 0.1,
  setting: 0.7,
  location: 0.5,
  /** Two names said of the same thing ("Sweet Baby Ray's" and "Kansas City Masterpiece", both a BBQ sauce). */
  name: 0.5,
  /** Added when the newer memory says something changed. */
  change: 0.2,
  /** Added when the two share anchor words beyond what is compared. */
  shared: 0.1,
} as const;

/** The strongest contradiction between a newer memory's claims and an older one's, or null. */
export function judgeContradiction(newer: MemoryClaims, older: MemoryClaims): ContradictionFinding | null {
  let best: ContradictionFinding | null = null;
  for (const n of newer.clauses) {
    for (const o of older.clauses) {
      for (const a of n.mentions) {
        for (const b of o.mentions) {
          const finding = compare(a, n, newer, b, o, older);
          if (finding && (best === null || finding.score > best.score)) best = finding;
        }
      }
    }
  }
  // A gone phrase only where the values said too little: they name it better ("feature flags: LaunchDarkly").
  if (best !== null && best.score >= LIKELY_CONTRADICTION) return best;
  return gonePhrase(newer, older) ?? gonePhrase(older, newer, true) ?? best;
}

function compare(a: Mention, n: Clause, newer: MemoryClaims, b: Mention, o: Clause, older: MemoryClaims): ContradictionFinding | null {
  if (!comparable(a.value, b.value)) return null;
  const same = sameValue(a.value, b.value);
  if (same && asserts(a.stance) !== asserts(b.stance)) return polarity(a, n, b, o);
  if (same || !asserts(a.stance) || !asserts(b.stance) || n.reason || o.reason) return null;
  // A memory that names both values as holding (Mailchimp beside Postmark) states no conflict,
  // unless it says which one is current ("moved to Auth0; Clerk's pricing did not work").
  if ((a.stance !== "current" && holdsValue(newer, b.value)) || (b.stance !== "current" && holdsValue(older, a.value))) return null;
  if (n.exception || o.exception || scopesDiffer(n, o) || subjectsDiffer(n, o) || namesDiffer(n, a, o, b)) return null;
  const shared = sharedAnchors(n, o, a.value, b.value) + sharedValues(n, a, o, b);
  const bonus = (newer.changes ? SCORES.change : 0) + (shared > 0 ? SCORES.shared : 0);
  const v = a.value;
  if (v.type === "choice") {
    const slot = v.slots.find((s) => (b.value as typeof v).slots.includes(s)) as string;
    return finding(SCORES.choice + bonus, slot, a.raw, b.raw);
  }
  if (v.type === "quantity") {
    const family = v.quantity.family;
    if (family === "version") return finding(SCORES.version + bonus, `${[...v.labels][0]} version`, a.raw, b.raw);
    const labels = overlap(v.labels, (b.value as typeof v).labels);
    // A count needs more than its label in common: "3 replicas" of which deployment?
    if (family !== "port" && shared === 0 && labels < 2) return null;
    if (family === "port") return finding(SCORES.port + bonus, "port", a.raw, b.raw);
    return finding(SCORES.quantity + SCORES.label * Math.min(3, labels - 1) + bonus, labelOf(v.labels, (b.value as typeof v).labels), a.raw, b.raw);
  }
  if (v.type === "setting") return finding(SCORES.setting + bonus, v.key, a.raw, b.raw);
  if (v.type === "location" && shared > 0) return finding(SCORES.location + bonus, v.form === "url" ? "address" : v.form, a.raw, b.raw);
  if (v.type === "name") {
    // "Crash Course" and "Crash Course Science" name one thing.
    const other = (b.value as typeof v).value.split(/\s+/);
    if (v.value.split(/\s+/).some((w) => other.includes(w))) return null;
    return finding(SCORES.name + bonus, labelOf(v.around, (b.value as typeof v).around), a.raw, b.raw);
  }
  return null;
}

/** One says a thing holds, the other that it is gone or not so. */
function polarity(a: Mention, n: Clause, b: Mention, o: Clause): ContradictionFinding | null {
  if (scopesDiffer(n, o)) return null;
  const gone = asserts(a.stance) ? b.stance : a.stance;
  const shared = sharedAnchors(n, o, a.value, b.value);
  // "Frontend errors go to Sentry, not Datadog" says nothing of Datadog's logs: a local denial needs a shared subject.
  if ((gone === "denied" || a.value.type === "name") && (shared === 0 || subjectsDiffer(n, o))) return null;
  if (a.value.type === "quantity" && (shared === 0 || subjectsDiffer(n, o))) return null;
  const score = (gone === "left" ? SCORES.left : SCORES.denied) + (shared > 0 ? SCORES.shared : 0);
  const what = a.value.type === "choice" ? a.value.slots[0] ?? a.raw : a.raw;
  return finding(score, what, describe(a.stance, a.raw), describe(b.stance, b.raw));
}

function comparable(a: ClaimValue, b: ClaimValue): boolean {
  if (a.type !== b.type) return false;
  if (a.type === "choice" && b.type === "choice") return a.slots.some((s) => b.slots.includes(s));
  if (a.type === "quantity" && b.type === "quantity") {
    const units = a.unit === undefined || b.unit === undefined || a.unit === b.unit;
    // "1 episode daily" is a rate, "episode 10" is not: a rate compares only with a rate of the same period.
    return a.quantity.family === b.quantity.family && units && a.per === b.per && overlap(a.labels, b.labels) > 0;
  }
  if (a.type === "setting" && b.type === "setting") return a.key === b.key;
  if (a.type === "location" && b.type === "location") return a.form === b.form;
  return a.type === "name" && b.type === "name" && a.value.length >= 3 && b.value.length >= 3 && (a.value === b.value || overlap(a.around, b.around) >= 2);
}

function sameValue(a: ClaimValue, b: ClaimValue): boolean {
  if (a.type === "quantity" && b.type === "quantity") return sameQuantity(a.quantity, b.quantity);
  if (a.type === "choice" && b.type === "choice") return a.value === b.value;
  return "value" in a && "value" in b && a.value === b.value;
}

/** Whether a memory states this value as holding anywhere. */
function holdsValue(memory: MemoryClaims, value: ClaimValue): boolean {
  return memory.clauses.some((c) => !c.reason && c.mentions.some((m) => asserts(m.stance) && comparable(m.value, value) && sameValue(m.value, value)));
}

/** Two clauses of different environments, platforms or languages ("staging" and "production") speak of different things. */
function scopesDiffer(n: Clause, o: Clause): boolean {
  for (const [category, words] of n.scopes) {
    const other = o.scopes.get(category);
    if (other && other.size > 0 && ![...words].some((w) => other.has(w))) return true;
  }
  return false;
}

/**
 * Two subjects that share nothing with the other clause at all ("the HTTP gateway" and "the gRPC
 * server"), or that are siblings: the same noun, each with a word the other clause lacks
 * ("refresh tokens" and "access tokens").
 */
function subjectsDiffer(n: Clause, o: Clause): boolean {
  if (n.head.length === 0 || o.head.length === 0) return false;
  const unmatched = (head: readonly AnchorWord[], other: Clause) => head.filter((w) => !matchesAny(w, other.anchors) && !matchesAny(w, other.head));
  const strayN = unmatched(n.head, o);
  const strayO = unmatched(o.head, n);
  if (strayN.length === n.head.length && strayO.length === o.head.length) return true;
  const noun = (head: readonly AnchorWord[]) => head[head.length - 1] as AnchorWord;
  return strayN.length > 0 && strayO.length > 0 && noun(n.head).stem === noun(o.head).stem;
}

/**
 * The tools, names and places each clause states, besides the values compared: "Postgres listens
 * on 5432" and "Redis listens on 6379", "/api/login" and "/api/search" speak of different things.
 */
function namesDiffer(n: Clause, a: Mention, o: Clause, b: Mention): boolean {
  // By word, so that "Crash Course Science" and "Crash Course" are one thing.
  const named = (clause: Clause, except: Mention) =>
    new Set(
      clause.mentions
        .filter((m) => m !== except && asserts(m.stance) && (m.value.type === "choice" || m.value.type === "name" || m.value.type === "location"))
        .flatMap((m) => (m.value.type === "name" ? m.value.value.split(/\s+/).filter((w) => w.length >= 2) : [(m.value as { value: string }).value.toLowerCase()])),
    );
  const left = named(n, a);
  const right = named(o, b);
  return left.size > 0 && right.size > 0 && ![...left].some((x) => right.has(x));
}

/** Values both clauses hold besides the compared ones (the same endpoint, the same tool): a shared subject. */
function sharedValues(n: Clause, a: Mention, o: Clause, b: Mention): number {
  return n.mentions.filter((x) => x !== a && asserts(x.stance) && x.value.type !== "quantity" && o.mentions.some((y) => y !== b && asserts(y.stance) && comparable(x.value, y.value) && sameValue(x.value, y.value))).length;
}

/**
 * A phrase one memory says is gone ("stopped using Conventional Commits", "no longer uses sharp")
 * that the other states as holding, in a memory about the same things (a word in common).
 */
function gonePhrase(from: MemoryClaims, other: MemoryClaims, fromIsOlder = false): ContradictionFinding | null {
  // Most memories say nothing is gone: the words below are gathered only for those that do.
  if (!from.clauses.some((c) => c.gone.length > 0)) return null;
  const words = new Set(from.clauses.flatMap((c) => c.anchors.map((w) => w.stem)));
  for (const clause of from.clauses) {
    for (const phrase of clause.gone) {
      const pattern = new RegExp(`(?<![\\w.-])${escapeRegExp(phrase)}(?![\\w-])`, "i");
      for (const target of other.clauses) {
        const m = pattern.exec(target.text);
        if (!m || m.index === undefined || target.reason || !asserts(stanceAt(target.text, m.index, m.index + m[0].length)) || scopesDiffer(clause, target)) continue;
        const shared = target.anchors.filter((w) => words.has(w.stem) && !phrase.includes(w.stem)).length;
        if (shared === 0) continue;
        const gone = `${phrase} (gone)`;
        return finding(SCORES.left + SCORES.shared, phrase, fromIsOlder ? m[0] : gone, fromIsOlder ? gone : m[0]);
      }
    }
  }
  return null;
}

/** Anchor words the clauses share, the compared values' own words left out. */
function sharedAnchors(n: Clause, o: Clause, a: ClaimValue, b: ClaimValue): number {
  const own = new Set([...labelsOf(a), ...labelsOf(b)]);
  return n.anchors.filter((w) => !own.has(w.stem) && matchesAny(w, o.anchors)).length;
}

function labelsOf(value: ClaimValue): string[] {
  return value.type === "quantity" ? [...value.labels] : [];
}

function matchesAny(word: AnchorWord, others: readonly AnchorWord[]): boolean {
  return others.some((w) => w.stem === word.stem || w.broader.includes(word.stem) || word.broader.includes(w.stem));
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let count = 0;
  for (const x of a) if (b.has(x)) count += 1;
  return count;
}

function labelOf(a: ReadonlySet<string>, b: ReadonlySet<string>): string {
  return [...a].filter((x) => b.has(x)).join(" ");
}

function describe(stance: Stance, raw: string): string {
  return stance === "left" ? `${raw} (gone)` : stance === "denied" ? `not ${raw}` : raw;
}

function finding(score: number, subject: string, newer: string, older: string): ContradictionFinding {
  return { score: Math.min(1, score), subject, newer, older };
}
