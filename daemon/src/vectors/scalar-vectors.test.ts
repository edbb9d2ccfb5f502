import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../../bench/seeded-random.js";
import { ScalarVectors } from "./scalar-vectors.js";

function randomVector(random: () => number, dimensions: number): Float32Array {
  return Float32Array.from({ length: dimensions }, () => random() * 2 - 1);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    aa += (a[i] as number) ** 2;
    bb += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(aa * bb);
}

describe("ScalarVectors", () => {
  // A byte per dimension errs by about 0.03 / sqrt(dimensions): 1e-3 at the sizes models use.
  it.each([
    [768, 1e-3],
    [1536, 1e-3],
    [100, 3e-3],
    [3, 2e-2],
  ])("scores held %i-dimensional vectors within %d of their exact cosine similarity", (dimensions, tolerance) => {
    const random = mulberry32(dimensions);
    const held = new ScalarVectors(dimensions, 2 ** 30);
    const vectors = Array.from({ length: 300 }, () => randomVector(random, dimensions));
    vectors.forEach((vector, id) => held.set(id, vector));
    for (let q = 0; q < 5; q++) {
      const query = randomVector(random, dimensions);
      const found = held.similarities(vectors.map((_, id) => id), query) as Float64Array;
      const worst = Math.max(...vectors.map((vector, id) => Math.abs((found[id] as number) - cosine(query, vector))));
      expect(worst).toBeLessThan(tolerance);
    }
  });

  it("scores more candidates than one kernel call takes, in the order asked", () => {
    const random = mulberry32(3);
    const held = new ScalarVectors(32, 2 ** 30);
    const vectors = Array.from({ length: 9000 }, () => randomVector(random, 32));
    vectors.forEach((vector, id) => held.set(id, vector));
    const ids = vectors.map((_, id) => 8999 - id);
    const query = randomVector(random, 32);
    const found = held.similarities(ids, query) as Float64Array;
    expect(found).toHaveLength(9000);
    ids.forEach((id, i) => expect(Math.abs((found[i] as number) - cosine(query, vectors[id] as Float32Array))).toBeLessThan(5e-3));
  });

  it("holds nothing past its byte budget, forgets a deleted vector and reuses its slot", () => {
    const random = mulberry32(8);
    const held = new ScalarVectors(64, 3 * (64 + 12));
    for (let id = 0; id < 5; id++) held.set(id, randomVector(random, 64));
    expect([0, 1, 2, 3, 4].map((id) => held.has(id))).toEqual([true, true, true, false, false]);
    held.delete(1);
    const query = randomVector(random, 64);
    expect(Array.from(held.similarities([0, 1, 2], query) as Float64Array, Number.isNaN)).toEqual([false, true, false]);
    expect(held.similarities([0, 1, 2], query, true)).toBeUndefined();
    const replacement = randomVector(random, 64);
    held.set(3, replacement);
    expect(held.has(3)).toBe(true);
    expect(Math.abs((held.similarities([3], query)?.[0] as number) - cosine(query, replacement))).toBeLessThan(2e-3);
  });

  it("holds no id it cannot look up directly: negative, fractional or past 2^26", () => {
    const held = new ScalarVectors(4, 2 ** 20);
    for (const id of [-1, 2.5, 2 ** 26, 2 ** 40]) held.set(id, Float32Array.of(1, 0, 0, 0));
    expect([-1, 2.5, 2 ** 26, 2 ** 40].map((id) => held.has(id))).toEqual([false, false, false, false]);
    expect(Array.from(held.similarities([-1, 2.5, 2 ** 40], Float32Array.of(1, 0, 0, 0)) as Float64Array, Number.isNaN)).toEqual([true, true, true]);
    held.set(100_000, Float32Array.of(0, 1, 0, 0));
    expect(Array.from(held.similarities([100_000], Float32Array.of(0, 1, 0, 0)) as Float64Array)).toEqual([1]);
  });

  it("overwrites a held vector in place when it is set again", () => {
    const random = mulberry32(9);
    const held = new ScalarVectors(48, 2 ** 20);
    held.set(7, randomVector(random, 48));
    const newer = randomVector(random, 48);
    held.set(7, newer);
    const query = randomVector(random, 48);
    expect(Math.abs((held.similarities([7], query)?.[0] as number) - cosine(query, newer))).toBeLessThan(2e-3);
  });

  it("ignores a vector of the wrong size and scores a zero vector or a zero query as 0", () => {
    const held = new ScalarVectors(4, 2 ** 20);
    held.set(1, new Float32Array(3));
    expect(held.has(1)).toBe(false);
    held.set(2, new Float32Array(4));
    held.set(3, Float32Array.of(1, 0, 0, 0));
    expect(Array.from(held.similarities([2, 3], Float32Array.of(1, 0, 0, 0)) as Float64Array)).toEqual([0, 1]);
    expect(Array.from(held.similarities([3], new Float32Array(4)) as Float64Array)).toEqual([0]);
  });
});
