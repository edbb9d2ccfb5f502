import { describe, expect, it } from "vitest";
import { poolSentences } from "./pooling.js";

describe("poolSentences", () => {
  // Two texts of two tokens each, width 2; the second text's second token is padding.
  const hidden = new Float32Array([3, 0, 0, 4, 1, 1, 100, -100]);

  it("averages the tokens the mask keeps, padding left out, to unit length", () => {
    const [first, second] = poolSentences(hidden, 2, 2, 2, [[1, 1], [1, 0]], "mean");
    expect([...(first as Float32Array)].map((x) => x.toFixed(3))).toEqual(["0.600", "0.800"]);
    expect([...(second as Float32Array)].map((x) => x.toFixed(3))).toEqual(["0.707", "0.707"]);
  });

  it("takes the first token for cls pooling", () => {
    const [first] = poolSentences(hidden, 2, 2, 2, [[1, 1], [1, 0]], "cls");
    expect([...(first as Float32Array)]).toEqual([1, 0]);
  });

  it("gives a zero vector rather than NaN when nothing is kept", () => {
    const [only] = poolSentences(new Float32Array([0, 0]), 1, 1, 2, [[1]], "mean");
    expect([...(only as Float32Array)]).toEqual([0, 0]);
  });
});
