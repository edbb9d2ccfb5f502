import { describe, expect, it } from "vitest";
import { popcount32, prefixDistances } from "./hamming.js";

function naivePopcount(word: number): number {
  let count = 0;
  for (let bit = 0; bit < 32; bit += 1) count += (word >>> bit) & 1;
  return count;
}

function randomWords(count: number, seed: number): Int32Array {
  let state = seed;
  return Int32Array.from({ length: count }, () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) | 0;
    return state ^ (state << 13);
  });
}

describe("hamming", () => {
  it("counts the set bits of any 32-bit word, negative ones included", () => {
    for (const word of [0, -1, 1, 0x80000000 | 0, 0x7fffffff, ...randomWords(200, 7)]) {
      expect(popcount32(word)).toBe(naivePopcount(word));
    }
  });

  it.each([1, 2, 5, 6])("measures %i-word prefixes and counts them by distance", (words) => {
    const count = 50;
    const codes = randomWords(count * words, 11 + words);
    const query = randomWords(words, 3);
    const out = new Uint8Array(count + 5);
    const histogram = new Int32Array(words * 32 + 1);
    prefixDistances(codes, count, words, query, out, 5, histogram);
    const expected = Array.from({ length: count }, (_, i) => {
      let distance = 0;
      for (let w = 0; w < words; w += 1) distance += naivePopcount((codes[i * words + w] as number) ^ (query[w] as number));
      return distance;
    });
    expect(Array.from(out.subarray(5))).toEqual(expected);
    expected.forEach((d) => {
      histogram[d] = (histogram[d] as number) - 1;
    });
    expect(histogram.every((n) => n === 0)).toBe(true);
  });
});
