import { describe, expect, it } from "vitest";
import { matchExpression, projectKey, queryTerms } from "./fts-query.js";

describe("queryTerms", () => {
  it("quotes each word", () => {
    expect(queryTerms("postgres port")).toEqual(['"postgres"', '"port"']);
  });

  it("turns a ticket id into a phrase of its parts", () => {
    expect(queryTerms("PAY-1423")).toEqual(['"pay 1423"']);
  });

  it("turns a file path into a phrase of its segments", () => {
    expect(queryTerms("src/auth/session.ts")).toEqual(['"src auth session ts"']);
  });

  it("drops stopwords when other terms remain", () => {
    expect(queryTerms("what is the ECONNRESET fix")).toEqual(['"econnreset"', '"fix"']);
  });

  it("keeps stopwords when nothing else is left", () => {
    expect(queryTerms("the")).toEqual(['"the"']);
  });

  it("neutralises FTS5 syntax characters", () => {
    expect(queryTerms('"unterminated * NEAR(a b) -x col:y')).toEqual(['"unterminated"', '"near a"', '"b"', '"x"', '"col y"']);
  });

  it("returns null for punctuation only", () => {
    expect(queryTerms(' " * - : ( ) ')).toBeNull();
  });

  it("removes duplicate terms", () => {
    expect(queryTerms("retry Retry RETRY")).toEqual(['"retry"']);
  });

  it("caps the number of terms", () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(" ");
    expect(queryTerms(words)).toHaveLength(32);
  });
});

describe("matchExpression", () => {
  it("searches the text columns only", () => {
    expect(matchExpression(['"a"', '"b"'], "AND")).toBe('{content problem solution concepts files tags} : ("a" AND "b")');
  });

  it("restricts to projects through their index tokens", () => {
    expect(matchExpression(['"a"'], "OR", ["acme", "global"])).toBe(
      `{content problem solution concepts files tags} : ("a") AND project_key : ("${projectKey("acme")}" OR "${projectKey("global")}")`,
    );
  });

  it("encodes any project name as one alphanumeric token", () => {
    expect(projectKey("acme-api")).toBe("p61636d652d6170690");
    expect(projectKey("Café / ünï")).toMatch(/^p[0-9a-f]+0$/);
  });
});
