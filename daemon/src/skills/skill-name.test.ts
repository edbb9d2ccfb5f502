import { describe, expect, it } from "vitest";
import { isValidSkillName } from "./skill-file.js";
import { skillSlug, uniqueSkillName } from "./skill-name.js";

describe("skillSlug", () => {
  it("takes the first four meaningful words of the content", () => {
    expect(skillSlug({ content: "Run the database migrations with make migrate-up.", concepts: [], kind: "procedure" })).toBe("run-database-migrations-make");
  });

  it("tops up from the concepts, and drops accents, stopwords and reserved words", () => {
    expect(skillSlug({ content: "Always use Claude for Café reviews", concepts: ["Code Review"], kind: "preference" })).toBe("cafe-reviews-code-review");
  });

  it("falls back to memd-<kind> when nothing usable is left", () => {
    expect(skillSlug({ content: "これは日本語です", concepts: [], kind: "preference" })).toBe("memd-preference");
  });

  it("stays a valid name of at most 64 characters for very long words", () => {
    const slug = skillSlug({ content: `${"a".repeat(70)} ${"b".repeat(30)}`, concepts: [], kind: "procedure" });
    expect(slug).toBe("a".repeat(64));
    expect(isValidSkillName(slug)).toBe(true);
    const two = skillSlug({ content: `${"a".repeat(40)} ${"b".repeat(30)} c`, concepts: [], kind: "procedure" });
    expect(two).toBe(`${"a".repeat(40)}`);
  });
});

describe("uniqueSkillName", () => {
  it("keeps a free name", () => {
    expect(uniqueSkillName("deploy-staging", new Set(["other"]))).toBe("deploy-staging");
  });

  it("numbers a taken name from 2 upwards", () => {
    expect(uniqueSkillName("deploy-staging", new Set(["deploy-staging"]))).toBe("deploy-staging-2");
    expect(uniqueSkillName("deploy-staging", new Set(["deploy-staging", "deploy-staging-2"]))).toBe("deploy-staging-3");
  });

  it("shortens a 64-character name to fit the suffix, without a dangling hyphen", () => {
    const base = `${"a".repeat(61)}-bc`;
    const name = uniqueSkillName(base, new Set([base]));
    expect(name).toBe(`${"a".repeat(61)}-2`);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(isValidSkillName(name)).toBe(true);
  });
});

describe("isValidSkillName", () => {
  it("accepts lowercase words joined by single hyphens, up to 64 characters", () => {
    expect(["a", "run-db-migrations", "v2-build", "x".repeat(64)].every(isValidSkillName)).toBe(true);
  });

  it("refuses capitals, underscores, edge or double hyphens and names over 64 characters", () => {
    expect(["", "Run", "run_db", "-run", "run-", "run--db", "x".repeat(65)].some(isValidSkillName)).toBe(false);
  });
});
