/**
 * The keys a memory's claims are filed under, so that the memories a new one may contradict are
 * looked up rather than searched for: two memories can contradict only where a value of one is
 * comparable with a value of the other (judge.ts: the same slot, a number of the same family
 * counting the same thing, the same setting, the same location or a location beside the same
 * words, a name said of the same thing), or where one says a phrase is gone that the other holds.
 * Each such pair shares a key here, so the keys are a superset of what the judge compares. Pure.
 */
import type { Clause, ClaimValue, MemoryClaims } from "./claims.js";

/** The longest phrase a clause says is gone, in words (see claims.ts GONE_PHRASE). */
const GONE_WORDS = 3;
/** What sharing a word beside a name says: two such words make two names comparable (judge.ts). */
const NAME_NEAR = "name near:";

/** The keys a memory is filed under: one per comparable value it states, and one per phrase it says is gone. */
export function claimKeys(claims: MemoryClaims): Set<string> {
  const keys = new Set<string>();
  for (const clause of claims.clauses) {
    for (const mention of clause.mentions) for (const key of valueKeys(mention.value, clause)) keys.add(key);
    for (const phrase of clause.gone) keys.add(goneKey(phrase));
  }
  return keys;
}

/**
 * The keys to look a new memory's possible contradictions up by: its own, and the phrases it
 * holds that another memory may say are gone (every run of up to three words of its clauses);
 * each with how much sharing it says that the two may be comparable: 1 where it alone may be
 * enough, 1/2 for a word beside a name (two are needed).
 */
export function lookupKeys(claims: MemoryClaims): Map<string, number> {
  const keys = new Map<string, number>();
  for (const key of claimKeys(claims)) keys.set(key, key.startsWith(NAME_NEAR) ? 0.5 : 1);
  for (const clause of claims.clauses) {
    const words = clause.text.toLowerCase().split(/\s+/).map((w) => w.replace(/^[("'`]+|[.,;:!?)"'`]+$/g, "")).filter((w) => w !== "");
    for (let i = 0; i < words.length; i += 1) {
      for (let n = 1; n <= GONE_WORDS && i + n <= words.length; n += 1) keys.set(goneKey(words.slice(i, i + n).join(" ")), 1);
    }
  }
  return keys;
}

/** The phrases a memory says are gone, to be searched for in the text of others. */
export function gonePhrases(claims: MemoryClaims): string[] {
  return [...new Set(claims.clauses.flatMap((c) => c.gone))];
}

function goneKey(phrase: string): string {
  return `gone:${phrase}`;
}

function valueKeys(value: ClaimValue, clause: Clause): string[] {
  switch (value.type) {
    case "choice":
      return value.slots.map((slot) => `slot:${slot}`);
    case "quantity":
      // Ports all compare ("the db port is 5433" and "Postgres listens on 5432"); other numbers by what they count.
      return value.quantity.family === "port" ? ["port"] : [...value.labels].map((label) => `${value.quantity.family}:${label}`);
    case "setting":
      return [`setting:${value.key}`];
    case "location":
      // The same location said otherwise, or another one beside the same words (a different location counts only then).
      return [`${value.form}:${value.value}`, ...clause.anchors.flatMap((w) => [w.stem, ...w.broader]).map((stem) => `${value.form} near:${stem}`)];
    case "name":
      // The same name, or two names said beside the same words (judge.ts: two words in common at least).
      return value.value.length < 3 ? [] : [`name:${value.value}`, ...[...value.around].map((word) => `${NAME_NEAR}${word}`)];
  }
}
