import { describe, expect, it } from "vitest";
import { embeddingText, textHash } from "./embedding-text.js";

describe("embeddingText", () => {
  it("joins content, problem, solution, concepts and files", () => {
    const text = embeddingText({
      content: "Fixed the login loop",
      problem: "refresh token expired",
      solution: "rotate on 401",
      concepts: ["JWT", "auth"],
      files: ["src/auth/tokens.ts"],
    });
    expect(text).toBe(
      "Fixed the login loop\nProblem: refresh token expired\nSolution: rotate on 401\nConcepts: JWT, auth\nFiles: src/auth/tokens.ts",
    );
  });

  it("leaves out empty fields", () => {
    expect(embeddingText({ content: "Just this", problem: " ", solution: "", concepts: [], files: [] })).toBe("Just this");
  });

  it("hashes equal texts equally and different texts differently", () => {
    expect(textHash("a")).toBe(textHash("a"));
    expect(textHash("a")).not.toBe(textHash("b"));
  });
});
