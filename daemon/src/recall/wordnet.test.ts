import { afterAll, describe, expect, it } from "vitest";
import { baseForms, WordNet } from "./wordnet.js";

const wordnet = WordNet.installed();
afterAll(() => wordnet.close());

describe("WordNet", () => {
  it("gives a word's synonyms with the share of its uses in the sense they share, most used first", () => {
    const car = wordnet.synonyms("car");
    expect(car[0]?.share).toBeGreaterThan(0.9);
    expect(car.map((s) => s.lemma)).toContain("automobile");
    expect(car.find((s) => s.lemma === "railcar")?.share ?? 1).toBeLessThan(0.1);
  });

  it("finds an inflected word through its base form, and multi-word lemmas with spaces", () => {
    expect(wordnet.synonyms("cities").map((s) => s.lemma)).toContain("metropolis");
    expect(wordnet.synonyms("tonight").map((s) => s.lemma)).toContain("this evening");
  });

  it("gives nothing for a word it does not hold or never saw used", () => {
    expect(wordnet.synonyms("kubectl")).toEqual([]);
  });
});

describe("baseForms", () => {
  it("applies WordNet's detachment rules", () => {
    expect(baseForms("cities")).toContain("city");
    expect(baseForms("deployed")).toContain("deploy");
    expect(baseForms("purchased")).toContain("purchase");
  });
});
