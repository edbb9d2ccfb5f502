import { describe, expect, it } from "vitest";
import { nearestByDistance } from "./nearest-by-distance.js";

function histogramOf(distances: Uint8Array, buckets: number): Int32Array {
  const histogram = new Int32Array(buckets);
  for (const d of distances) histogram[d] = (histogram[d] as number) + 1;
  return histogram;
}

describe("nearestByDistance", () => {
  const distances = Uint8Array.from([5, 0, 3, 3, 9, 1, 7, 3, 2, 8]);
  const histogram = histogramOf(distances, 10);

  it("returns the positions of the smallest distances, nearest first, ties in position order", () => {
    expect(Array.from(nearestByDistance(distances, 10, histogram, 5))).toEqual([1, 5, 8, 2, 3]);
  });

  it("returns every position when asked for more than there are", () => {
    expect(Array.from(nearestByDistance(distances, 10, histogram, 50))).toEqual([1, 5, 8, 2, 3, 7, 0, 6, 9, 4]);
  });

  it("skips positions the filter turns down and reaches further to make up for them", () => {
    const even = (position: number) => position % 2 === 0;
    expect(Array.from(nearestByDistance(distances, 10, histogram, 3, even))).toEqual([8, 2, 0]);
  });

  it("returns nothing when the filter turns everything down", () => {
    expect(nearestByDistance(distances, 10, histogram, 3, () => false).length).toBe(0);
  });
});
