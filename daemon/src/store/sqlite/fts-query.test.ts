import { describe, expect, it } from "vitest";
import { buildFtsQuery } from "./fts-query.js";

describe("buildFtsQuery", () => {
  it("quotes each word and joins them with OR", () => {
    expect(buildFtsQuery("postgres port")).toBe('"postgres" OR "port"');
  });

  it("turns a ticket id into a phrase of its parts", () => {
    expect(buildFtsQuery("PAY-1423")).toBe('"pay 1423"');
  });

  it("turns a file path into a phrase of its segments", () => {
    expect(buildFtsQuery("src/auth/session.ts")).toBe('"src auth session ts"');
  });

  it("drops stopwords when other terms remain", () => {
    expect(buildFtsQuery("what is the ECONNRESET fix")).toBe('"econnreset" OR "fix"');
  });

  it("keeps stopwords when nothing else is left", () => {
    expect(buildFtsQuery("the")).toBe('"the"');
  });

  it("neutralises FTS5 syntax characters", () => {
    const query = buildFtsQuery('"unterminated * NEAR(a b) -x col:y');
    expect(query).toBe('"unterminated" OR "near a" OR "b" OR "x" OR "col y"');
  });

  it("returns null for punctuation only", () => {
    expect(buildFtsQuery(' " * - : ( ) ')).toBeNull();
  });

  it("removes duplicate terms", () => {
    expect(buildFtsQuery("retry Retry RETRY")).toBe('"retry"');
  });

  it("caps the number of terms", () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(" ");
    expect(buildFtsQuery(words)?.split(" OR ")).toHaveLength(32);
  });
});
