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
  it("scores a held vector within 1e-3 of its exact cosine similarity", () => {
    const random = mulberry32(7);
    const held = new ScalarVectors(768, 2 ** 30);
    let worst = 0;
    for (let id = 0; id < 200; id++) {
      const vector = randomVector(random, 768);
      const query = randomVector(random, 768);
      held.set(id, vector);
      const norm = Math.sqrt(query.reduce((sum, x) => sum + x * x, 0));
      worst = Math.max(worst, Math.abs((held.similarity(id, query, norm) as number) - cosine(query, vector)));
    }
    expect(worst).toBeLessThan(1e-3);
  });

  it("holds nothing past its byte budget and forgets a deleted vector", () => {
    const random = mulberry32(8);
    const held = new ScalarVectors(64, 3 * (64 + 160));
    for (let id = 0; id < 5; id++) held.set(id, randomVector(random, 64));
    expect([0, 1, 2, 3, 4].map((id) => held.has(id))).toEqual([true, true, true, false, false]);
    held.delete(1);
    expect(held.similarity(1, randomVector(random, 64), 1)).toBeUndefined();
    held.set(3, randomVector(random, 64));
    expect(held.has(3)).toBe(true);
  });

  it("ignores a vector of the wrong size and scores a zero vector as 0", () => {
    const held = new ScalarVectors(4, 2 ** 20);
    held.set(1, new Float32Array(3));
    expect(held.has(1)).toBe(false);
    held.set(2, new Float32Array(4));
    expect(held.similarity(2, Float32Array.of(1, 0, 0, 0), 1)).toBe(0);
  });
});
