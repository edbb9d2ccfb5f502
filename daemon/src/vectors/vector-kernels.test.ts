import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../../bench/seeded-random.js";
// @ts-expect-error: a plain script, run by npm run generate:kernels; it has no type declarations.
import { assembleKernels, kernelsModuleText } from "./generate-kernels.mjs";
import { KernelArena } from "./kernel-arena.js";
import { ensureMemory, instantiateKernels } from "./vector-kernels.js";

function naivePopcount(word: number): number {
  let count = 0;
  for (let bit = 0; bit < 32; bit += 1) count += (word >>> bit) & 1;
  return count;
}

function randomWords(count: number, random: () => number): Int32Array {
  return Int32Array.from({ length: count }, () => Math.floor(random() * 2 ** 32) | 0);
}

describe("vector kernels", () => {
  it("are committed as vector-kernels.wat assembles (npm run generate:kernels)", async () => {
    const committed = await readFile(new URL("./vector-kernels-wasm.ts", import.meta.url), "utf8");
    expect(committed).toBe(kernelsModuleText(await assembleKernels()));
  });

  it.each([1, 2, 5, 6, 7])("measure the Hamming distance of %i-word codes and count them by distance", (words) => {
    const random = mulberry32(words);
    const kernels = instantiateKernels();
    const count = 300;
    const codes = randomWords(count * words, random);
    // Some codes equal to the query or its complement: distance 0 and the largest.
    const query = randomWords(words, random);
    codes.set(query, 0);
    codes.set(query.map((w) => ~w), words);
    const [codesAt, queryAt, outAt, histogramAt] = [64, 64 + count * words * 4, 128 + count * words * 4 + 64, 4096 + count * words * 4];
    ensureMemory(kernels, histogramAt + (words * 32 + 1) * 4);
    const { buffer } = kernels.memory;
    new Int32Array(buffer, codesAt, codes.length).set(codes);
    new Int32Array(buffer, queryAt, words).set(query);
    kernels.hamming(codesAt, count, words, queryAt, outAt, histogramAt);
    const expected = Array.from({ length: count }, (_, i) => {
      let distance = 0;
      for (let w = 0; w < words; w += 1) distance += naivePopcount((codes[i * words + w] as number) ^ (query[w] as number));
      return distance;
    });
    expect(expected.slice(0, 2)).toEqual([0, words * 32]);
    expect(Array.from(new Uint8Array(buffer, outAt, count))).toEqual(expected);
    const histogram = Array.from(new Int32Array(buffer, histogramAt, words * 32 + 1));
    expect(histogram).toEqual(histogram.map((_, d) => expected.filter((e) => e === d).length));
  });

  it.each([1, 3, 4, 5, 8, 11])("take exact integer dot products of int8 rows with an int16 query, for %i rows named", (rowCount) => {
    const random = mulberry32(rowCount);
    const kernels = instantiateKernels();
    const stride = 48;
    const rows = Array.from({ length: 20 }, () => Int8Array.from({ length: stride }, () => Math.round(random() * 254) - 127));
    const query = Int16Array.from({ length: stride }, () => Math.round(random() * 65_534) - 32_767);
    const named = Array.from({ length: rowCount }, (_, i) => [19, 0, 7, 7, 3, 12, 1, 18, 5, 5, 9][i] as number);
    const [queryAt, slotsAt, outAt, slabAt] = [0, 128, 256, 512];
    ensureMemory(kernels, slabAt + rows.length * stride);
    const { buffer } = kernels.memory;
    new Int16Array(buffer, queryAt, stride).set(query);
    new Int32Array(buffer, slotsAt, named.length).set(named);
    rows.forEach((row, slot) => new Int8Array(buffer, slabAt + slot * stride, stride).set(row));
    kernels.dots(queryAt, stride, slabAt, slotsAt, named.length, outAt);
    const exact = named.map((slot) => (rows[slot] as Int8Array).reduce((sum, value, d) => sum + value * (query[d] as number), 0));
    expect(Array.from(new Float64Array(buffer, outAt, named.length))).toEqual(exact);
  });

  it.each([
    [-1, 0],
    [-1, 40],
    [3, 9],
    [250, 255],
    [0, 255],
  ])("gather the positions of distances in (%i, %i], in order, past the last whole block of 16 too", (after, upTo) => {
    const random = mulberry32(after + 2);
    const kernels = instantiateKernels();
    const count = 16 * 7 + 5;
    const distances = Uint8Array.from({ length: count }, () => Math.floor(random() * 256));
    distances.set([after + 1, upTo, Math.max(0, after), Math.min(255, upTo + 1)], count - 4);
    const [distancesAt, outAt] = [64, 1024];
    ensureMemory(kernels, outAt + count * 4);
    new Uint8Array(kernels.memory.buffer, distancesAt, count).set(distances);
    const n = kernels.gather(distancesAt, count, after, upTo, outAt);
    const expected = [...distances.keys()].filter((i) => (distances[i] as number) > after && (distances[i] as number) <= upTo);
    expect(expected.length).toBeGreaterThan(0);
    expect(Array.from(new Int32Array(kernels.memory.buffer, outAt, n))).toEqual(expected);
  });
});

describe("kernel arena", () => {
  it("hands out aligned, disjoint blocks and reuses a freed block for the next of its size", () => {
    const arena = new KernelArena();
    const a = arena.alloc(100);
    const b = arena.alloc(3000);
    const c = arena.alloc(100_000);
    for (const at of [a, b, c]) expect(at % 64).toBe(0);
    expect(b).toBeGreaterThanOrEqual(a + 128);
    expect(c).toBeGreaterThanOrEqual(b + 4096);
    expect(arena.byteLength).toBeGreaterThanOrEqual(c + 131_072);
    arena.free(b, 3000);
    expect(arena.alloc(2100)).toBe(b);
    expect(arena.alloc(2100)).toBeGreaterThan(c);
  });
});
