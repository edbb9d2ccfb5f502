import { describe, expect, it } from "vitest";
import { queryChunks, queryPhrases } from "./query-phrases.js";

describe("queryChunks", () => {
  it("keeps each word as its own chunk", () => {
    expect(queryChunks("postgres port")).toEqual([["postgres"], ["port"]]);
  });

  it("keeps a ticket id and a file path as one chunk of their parts", () => {
    expect(queryChunks("PAY-1423 src/auth/session.ts")).toEqual([["pay", "1423"], ["src", "auth", "session", "ts"]]);
  });

  it("drops stopwords when other words remain", () => {
    expect(queryChunks("what is the ECONNRESET fix")).toEqual([["econnreset"], ["fix"]]);
  });

  it("keeps stopwords when nothing else is left", () => {
    expect(queryChunks("the")).toEqual([["the"]]);
  });

  it("reads FTS5 syntax characters as separators, never as syntax", () => {
    expect(queryChunks('"unterminated * NEAR(a b) -x col:y')).toEqual([["unterminated"], ["near", "a"], ["b"], ["x"], ["col", "y"]]);
  });

  it("returns null for punctuation only", () => {
    expect(queryChunks(' " * - : ( ) ')).toBeNull();
  });

  it("removes duplicate chunks whatever their case", () => {
    expect(queryChunks("retry Retry RETRY")).toEqual([["retry"]]);
  });

  it("caps the number of chunks at 32", () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(" ");
    expect(queryChunks(words)).toHaveLength(32);
  });
});

describe("queryPhrases", () => {
  it("stems each phrase's tokens as the index does", () => {
    expect(queryPhrases("running migrations PAY-1423")).toEqual([["run"], ["migrat"], ["pai", "1423"]]);
  });
});
