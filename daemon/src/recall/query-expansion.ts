import type { QueryPhrase } from "../keywords/keyword-index.js";
import { tokenize } from "../keywords/tokenize.js";
import { SOFTWARE_THESAURUS } from "./software-thesaurus.js";

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

const DEFAULT_THESAURUS = compileThesaurus(SOFTWARE_THESAURUS);
/** The most phrases a query's expansion adds: enough for a few synonym groups. */
const MAX_EXPANSIONS = 16;

/**
 * The phrases the thesaurus adds to a query: for every run of the query's tokens that is a
 * thesaurus entry, its expansions that the query does not already hold, longest entries first.
 */
export function expandQuery(query: string, thesaurus: Thesaurus = DEFAULT_THESAURUS): QueryPhrase[] {
  const tokens = tokenize(query);
  const present = new Set(tokens);
  const added = new Map<string, QueryPhrase>();
  for (let length = 3; length >= 1; length -= 1) {
    for (let i = 0; i + length <= tokens.length; i += 1) {
      for (const phrase of thesaurus.get(tokens.slice(i, i + length).join(" ")) ?? []) {
        const key = phrase.join(" ");
        if (phrase.every((token) => present.has(token)) || added.has(key)) continue;
        added.set(key, phrase);
      }
    }
  }
  return [...added.values()].slice(0, MAX_EXPANSIONS);
}
