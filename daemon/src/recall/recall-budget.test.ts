import { describe, expect, it } from "vitest";
import { estimateTokens, fitBudget, summarize } from "./recall-budget.js";

describe("summarize", () => {
  it("keeps the first sentence", () => {
    expect(summarize("Auth is Clerk. We dropped custom JWT in March.")).toBe("Auth is Clerk.");
  });

  it("cuts a long sentence at a word boundary", () => {
    const text = `${"word ".repeat(60)}end`;
    const summary = summarize(text, 40);
    expect(summary.length).toBeLessThanOrEqual(40);
    expect(summary.endsWith("word…")).toBe(true);
  });

  it("does not break on a decimal point in a version", () => {
    expect(summarize("Node 20.11 is required for the build")).toBe("Node 20.11 is required for the build");
  });
});

describe("fitBudget", () => {
  const cost = (n: number) => n;

  it("stops at the count", () => {
    expect(fitBudget([1, 1, 1], cost, 2, 0)).toEqual({ kept: [1, 1], tokens: 2, truncated: true });
  });

  it("skips an item over the budget and keeps a smaller one after it", () => {
    expect(fitBudget([100, 250, 50], cost, 10, 300)).toEqual({ kept: [100, 50], tokens: 150, truncated: true });
  });

  it("keeps everything when it fits", () => {
    expect(fitBudget([10, 20], cost, 10, 300)).toEqual({ kept: [10, 20], tokens: 30, truncated: false });
  });

  it("estimates about four characters per token", () => {
    expect(estimateTokens("x".repeat(400))).toBe(100);
  });
});
