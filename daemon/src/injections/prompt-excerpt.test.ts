import { describe, expect, it } from "vitest";
import { PROMPT_EXCERPT_CHARS, promptExcerpt } from "./prompt-excerpt.js";

const KEY = "ghp_R8x2Lq9ZtVb4Nc7Mw1Ks5Jd3Hf6Gy0Pa2Ue8";

describe("promptExcerpt", () => {
  it("redacts a secret and folds whitespace", () => {
    expect(promptExcerpt(`  why does\n\nthe deploy fail with token ${KEY} ?`)).toBe("why does the deploy fail with token [REDACTED:github-token] ?");
  });

  it("keeps the first 500 characters, ending before a word cut in two", () => {
    const prompt = `${"word ".repeat(99)}lastword and more after it`;
    const excerpt = promptExcerpt(prompt);
    expect(excerpt.length).toBeLessThanOrEqual(PROMPT_EXCERPT_CHARS);
    expect(excerpt).toBe(`${"word ".repeat(99).trimEnd()}…`);
  });

  it("keeps no stump of a secret that straddles the first cut, though folded whitespace brings it within 500 characters", () => {
    const prompt = `why${"\n".repeat(1980)}${KEY} tail`;
    expect(promptExcerpt(prompt)).toBe("why…");
  });

  it("redacts a secret that starts after 500 characters but before the first cut, so none of it is kept", () => {
    const excerpt = promptExcerpt(`${"x ".repeat(245)}${KEY}`);
    expect(excerpt).not.toContain("R8x2Lq9Z");
  });
});
