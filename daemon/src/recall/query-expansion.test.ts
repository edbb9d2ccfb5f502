import { describe, expect, it } from "vitest";
import { compileThesaurus, expandQuery, type Vocabulary } from "./query-expansion.js";
import { SOFTWARE_THESAURUS } from "./software-thesaurus.js";

const words = (phrases: readonly (readonly string[])[]) => phrases.map((p) => p.join(" "));
const added = (query: string, vocabulary?: Vocabulary) => {
  const { thesaurus, lexicon } = expandQuery(query, vocabulary);
  return words([...thesaurus, ...lexicon].map((p) => p.tokens));
};

describe("compileThesaurus", () => {
  it("makes every member of a group expand to the others, on stems", () => {
    const thesaurus = compileThesaurus(["deploy, release, ship"]);
    expect(words(thesaurus.get("deploi") ?? [])).toEqual(["releas", "ship"]);
    expect(words(thesaurus.get("ship") ?? [])).toEqual(["deploi", "releas"]);
  });

  it("makes a broader term expand to its narrower ones and not back", () => {
    const thesaurus = compileThesaurus(["database > postgres, sqlite"]);
    expect(words(thesaurus.get("databas") ?? [])).toEqual(["postgr", "sqlite"]);
    expect(thesaurus.get("postgr")).toBeUndefined();
  });

  it("rejects a line with two arrows or nothing before one", () => {
    expect(() => compileThesaurus(["a > b > c"])).toThrow(/more than one/);
    expect(() => compileThesaurus([" > b"])).toThrow(/no term before/);
  });

  it("compiles the shipped thesaurus, every group with at least two members", () => {
    const thesaurus = compileThesaurus(SOFTWARE_THESAURUS);
    expect(thesaurus.size).toBeGreaterThan(200);
    for (const line of SOFTWARE_THESAURUS) expect(line.split(/[,>]/).filter((m) => m.trim() !== "").length).toBeGreaterThanOrEqual(2);
  });
});

describe("expandQuery", () => {
  it("adds synonyms of single words and of multi-word terms", () => {
    expect(added("which login provider do we rely on")).toContain("auth");
    expect(added("where do I sign in")).toContain("login");
  });

  it("adds nothing the query already says", () => {
    const expansion = added("login and auth");
    expect(expansion).not.toContain("login");
    expect(expansion).not.toContain("auth");
  });

  it("adds nothing for a query outside the vocabulary", () => {
    expect(added("When did Caroline go to the zxqv?")).toEqual([]);
  });

  it("adds a general word's synonyms from WordNet, weighed by how often the word is meant in that sense", () => {
    const { lexicon } = expandQuery("can you recommend a movie for tonight");
    const weight = (word: string) => lexicon.find((p) => p.tokens.join(" ") === word)?.weight ?? 0;
    // "film" shares the sense "movie" nearly always has; "advocate" the sense "recommend" mostly has.
    expect(weight("film")).toBeGreaterThan(0.4);
    expect(weight("advoc")).toBeGreaterThan(0.3);
    expect(lexicon.every((p) => p.weight <= 0.5)).toBe(true);
  });

  it("gives no synonym from a sense that carries under a quarter of a word's uses", () => {
    const vocabulary: Vocabulary = {
      thesaurus: new Map(),
      synonyms: () => [{ lemma: "motorcar", share: 0.9 }, { lemma: "railcar", share: 0.05 }],
    };
    expect(added("fix the car", vocabulary)).toEqual(["motorcar"]);
  });

  it("leaves the lexicon out where the software thesaurus knows the query", () => {
    expect(expandQuery("the login flow broke after the release").lexicon).toEqual([]);
  });
});
