import { describe, expect, it } from "vitest";
import { cosineSimilarity } from "./cosine.js";

describe("cosineSimilarity", () => {
  it("is 1 for the same direction, whatever the length", () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBe(1);
  });

  it("is 0 for orthogonal and -1 for opposite vectors", () => {
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 0], [-1, 0])).toBe(-1);
  });

  it("reads typed arrays", () => {
    expect(cosineSimilarity(new Float32Array([0.6, 0.8]), [0.8, 0.6])).toBeCloseTo(0.96, 6);
  });

  it("scores vectors of different models (lengths) and zero vectors as 0", () => {
    expect(cosineSimilarity([1, 0], [1, 0, 0])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 0])).toBe(0);
    expect(cosineSimilarity([], [])).toBe(0);
  });
});
