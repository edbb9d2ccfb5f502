import { describe, expect, it } from "vitest";
import { addScaled, planBatches, splitIntoWindows } from "./use-lite-windows.js";

describe("splitIntoWindows", () => {
  it("cuts token ids into consecutive windows, the last one shorter", () => {
    expect(splitIntoWindows([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(splitIntoWindows([1, 2], 128)).toEqual([[1, 2]]);
  });
});

describe("planBatches", () => {
  it("puts similar lengths together, shortest first", () => {
    expect(planBatches([50, 3, 48, 4], 200, 2)).toEqual([
      [1, 3],
      [2, 0],
    ]);
  });

  it("keeps the padded size of a call within the token budget", () => {
    // Padded size is count × longest: 3 × 40 = 120 fits 128, a fourth (4 × 40) would not.
    expect(planBatches([40, 40, 40, 40], 128, 32)).toEqual([[0, 1, 2], [3]]);
  });

  it("gives a sequence longer than the budget a call of its own rather than dropping it", () => {
    expect(planBatches([10, 500], 100, 32)).toEqual([[0], [1]]);
  });
});

describe("addScaled", () => {
  it("adds a weighted row of a batch output into a sum", () => {
    const sum = Float32Array.from([1, 1]);
    addScaled(sum, Float32Array.from([9, 9, 2, 3]), 2, 10);
    expect(sum).toEqual(Float32Array.from([21, 31]));
  });
});
