import { describe, expect, it } from "vitest";
import { TopScores } from "./top-scores.js";

describe("TopScores", () => {
  it("keeps the highest-scoring items, best first", () => {
    const top = new TopScores(3);
    [0.5, 0.9, -1, 0.7, 0.1, 0.95, 0.2].forEach((score, item) => top.push(score, item));
    expect(Array.from(top.itemsBestFirst())).toEqual([5, 1, 3]);
    expect(top.floor).toBe(0.7);
  });

  it("has no floor until it is full", () => {
    const top = new TopScores(2);
    top.push(1, 0);
    expect(top.floor).toBe(Number.NEGATIVE_INFINITY);
    expect(top.size).toBe(1);
  });
});
