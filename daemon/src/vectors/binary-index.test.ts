import { describe, expect, it } from "vitest";
import { type BinaryIndex, createBinaryIndex, type SearchTuning } from "./binary-index.js";
import { type Quantizer, trainQuantizer, untrainedQuantizer } from "./sign-quantizer.js";
import { VectorDimensionError } from "./vector-index.js";

/** A reproducible stream of numbers in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function unit(values: Float32Array): Float32Array {
  const norm = Math.hypot(...values);
  return values.map((x) => x / norm);
}

/**
 * Unit vectors shaped like embeddings: a shared direction, a few dozen cluster centres, and
 * variation along a few dozen directions of decaying weight (real embeddings have a low
 * intrinsic dimension; isotropic noise in every dimension would be far harder than they are).
 */
function clusteredVectors(count: number, dimensions: number, seed: number): Float32Array[] {
  const random = seeded(seed);
  const direction = (scale: number) => Float32Array.from({ length: dimensions }, () => (gaussian(random) * scale) / Math.sqrt(dimensions));
  const common = direction(1);
  const centres = Array.from({ length: 40 }, () => direction(0.8));
  const variations = Array.from({ length: 32 }, (_, j) => direction(0.7 / Math.sqrt(j + 1)));
  return Array.from({ length: count }, () => {
    const centre = centres[Math.floor(random() * centres.length)] as Float32Array;
    const v = common.map((x, d) => x + (centre[d] as number));
    for (const variation of variations) {
      const weight = gaussian(random);
      for (let d = 0; d < dimensions; d += 1) v[d] = (v[d] as number) + weight * (variation[d] as number);
    }
    const noise = direction(0.15);
    return unit(v.map((x, d) => x + (noise[d] as number)));
  });
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let d = 0; d < a.length; d += 1) dot += (a[d] as number) * (b[d] as number);
  return dot / Math.sqrt(a.reduce((s, x) => s + x * x, 0) * b.reduce((s, x) => s + x * x, 0));
}

/** The true top k among `ids`, by brute force. */
function bruteForce(vectors: Map<number, Float32Array>, query: Float32Array, k: number, ids = [...vectors.keys()]): number[] {
  return ids
    .map((id) => ({ id, similarity: cosine(query, vectors.get(id) as Float32Array) }))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, k)
    .map((hit) => hit.id);
}

/**
 * An index over vectors kept in a Map, which stands in for the database. It holds no copies
 * of its own unless given a budget, so rescoring reads every vector exactly.
 */
function indexOver(vectors: Map<number, Float32Array>, quantizer: Quantizer, tuning?: Partial<SearchTuning>, scalarBudgetBytes = 0, reads = { count: 0 }): BinaryIndex {
  return createBinaryIndex({
    quantizer,
    tuning,
    scalarBudgetBytes,
    exactVectors: (ids) => {
      reads.count += ids.length;
      return new Map(ids.flatMap((id) => (vectors.has(id) ? [[id, vectors.get(id) as Float32Array]] : [])));
    },
  });
}

// Small stores skip the cheaper passes; these settings make even a few hundred vectors go
// through all three, so that the tests cover the paths a million vectors take.
const THREE_PASSES: Partial<SearchTuning> = {
  minCandidates: 60,
  candidatesPerRoot: 0,
  minRerank: 20,
  rerankPerResult: 2,
  rerankPerRoot: 0,
};

describe("binary index", () => {
  const dimensions = 64;
  // The query comes from the same space as the stored vectors, as a search's embedding does.
  const drawn = clusteredVectors(601, dimensions, 1);
  const vectors = new Map(drawn.slice(0, 600).map((v, id) => [id + 1, v] as const));
  const quantizer = trainQuantizer([...vectors.values()].slice(0, 100));
  const query = drawn[600] as Float32Array;

  function filledIndex(tuning?: Partial<SearchTuning>, partitionOf = (id: number) => `project-${id % 3}`): BinaryIndex {
    const index = indexOver(vectors, quantizer, tuning);
    for (const [id, vector] of vectors) index.add(id, vector, partitionOf(id));
    return index;
  }

  it("returns exact cosine similarities, best first", () => {
    const hits = filledIndex(THREE_PASSES).search(query, { k: 5 });
    expect(hits).toHaveLength(5);
    for (const hit of hits) expect(hit.similarity).toBeCloseTo(cosine(query, vectors.get(hit.id) as Float32Array), 6);
    const similarities = hits.map((hit) => hit.similarity);
    expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
  });

  it("finds the exact top 10 when every vector is rescored", () => {
    const hits = filledIndex({ minRerank: vectors.size }).search(query, { k: 10 });
    expect(hits.map((hit) => hit.id)).toEqual(bruteForce(vectors, query, 10));
  });

  it("searches only the requested partitions", () => {
    const index = filledIndex(THREE_PASSES);
    const hits = index.search(query, { k: 20, partitions: ["project-1", "project-2", "nowhere"] });
    expect(hits).toHaveLength(20);
    expect(hits.every((hit) => hit.id % 3 !== 0)).toBe(true);
    expect(index.search(query, { k: 5, partitions: ["nowhere"] })).toEqual([]);
    expect(index.search(query, { k: 5, partitions: [] })).toEqual([]);
  });

  it("searches every partition when none are named", () => {
    const ids = filledIndex({ minRerank: vectors.size })
      .search(query, { k: 10 })
      .map((hit) => hit.id);
    expect(ids).toEqual(bruteForce(vectors, query, 10));
  });

  it("returns only ids the accept filter keeps, even when it turns most down", () => {
    const index = filledIndex(THREE_PASSES);
    const accept = (id: number) => id % 10 === 0;
    const hits = index.search(query, { k: 10, accept });
    expect(hits).toHaveLength(10);
    expect(hits.every((hit) => accept(hit.id))).toBe(true);
    const allowed = [...vectors.keys()].filter(accept);
    const found = hits.filter((hit) => bruteForce(vectors, query, 10, allowed).includes(hit.id));
    expect(found.length).toBeGreaterThanOrEqual(9);
  });

  it("forgets removed ids and ignores unknown ones", () => {
    const index = filledIndex(THREE_PASSES);
    const best = index.search(query, { k: 3 }).map((hit) => hit.id);
    for (const id of best) index.remove(id);
    index.remove(123_456);
    expect(index.size).toBe(vectors.size - 3);
    const after = index.search(query, { k: 50 }).map((hit) => hit.id);
    expect(after.some((id) => best.includes(id))).toBe(false);
    expect(after).toHaveLength(50);
  });

  it("replaces the vector and the partition of an id added again", () => {
    const local = new Map(vectors);
    const index = indexOver(local, quantizer, THREE_PASSES);
    for (const [id, vector] of local) index.add(id, vector, `project-${id % 3}`);
    local.set(7, query);
    index.add(7, query, "elsewhere");
    expect(index.size).toBe(vectors.size);
    expect(index.search(query, { k: 1, partitions: ["elsewhere"] })).toEqual([{ id: 7, similarity: expect.closeTo(1, 6) }]);
    expect(index.search(query, { k: 600, partitions: ["project-1"] }).some((hit) => hit.id === 7)).toBe(false);
    local.set(8, query);
    index.add(8, query, "project-2");
    expect(index.search(query, { k: 1, partitions: ["project-2"] })[0]?.id).toBe(8);
  });

  it("finds at least 98% of the true 10 nearest neighbours in a clustered set", () => {
    // Enough vectors that a search takes all three passes with the default settings.
    const drawn = clusteredVectors(6040, 256, 5);
    const many = new Map(drawn.slice(0, 6000).map((v, id) => [id, v] as const));
    const index = indexOver(many, trainQuantizer([...many.values()].slice(0, 1000)));
    for (const [id, vector] of many) index.add(id, vector, "all");
    const queries = drawn.slice(6000);
    let found = 0;
    for (const q of queries) {
      const truth = bruteForce(many, q, 10);
      found += index.search(q, { k: 10 }).filter((hit) => truth.includes(hit.id)).length;
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.98);
  });

  it("gives the same results when rebuilt from stored codes", () => {
    const index = filledIndex(THREE_PASSES);
    const rebuilt = indexOver(vectors, quantizer, THREE_PASSES);
    for (const [id, vector] of vectors) rebuilt.addCode(id, index.encode(vector), `project-${id % 3}`);
    expect(rebuilt.search(query, { k: 10 })).toEqual(index.search(query, { k: 10 }));
  });

  it("drops ids whose exact vector is gone from the source", () => {
    const local = new Map(vectors);
    const index = indexOver(local, quantizer, THREE_PASSES);
    for (const [id, vector] of local) index.add(id, vector, "all");
    const best = index.search(query, { k: 1 })[0]?.id as number;
    local.delete(best);
    expect(index.search(query, { k: 10 }).map((hit) => hit.id)).not.toContain(best);
  });

  it("returns everything it holds, best first, when k exceeds its size", () => {
    const few = new Map([...vectors].slice(0, 7));
    const index = indexOver(few, quantizer);
    for (const [id, vector] of few) index.add(id, vector, "all");
    expect(index.search(query, { k: 50 }).map((hit) => hit.id)).toEqual(bruteForce(few, query, 7));
  });

  it("scores every candidate from the vectors it holds, without reading them, as exact rescoring of them all would (within 4e-3 at 64 dimensions)", () => {
    const reads = { count: 0 };
    const held = indexOver(vectors, quantizer, THREE_PASSES, 2 ** 30, reads);
    for (const [id, vector] of vectors) held.add(id, vector, "all");
    // The same 60 candidates, every one rescored from its exact vector.
    const exact = filledIndex({ ...THREE_PASSES, minRerank: 60 }, () => "all").search(query, { k: 10 });
    const hits = held.search(query, { k: 10 });
    expect(reads.count).toBe(0);
    expect(hits.map((hit) => hit.id)).toEqual(exact.map((hit) => hit.id));
    hits.forEach((hit, i) => expect(Math.abs(hit.similarity - (exact[i]?.similarity as number))).toBeLessThan(4e-3));
  });

  it.each([
    ["held", 2 ** 30],
    ["read", 0],
  ])("breaks a tie between equal vectors by lowest id, whatever the partitions' order (%s)", (_, budget) => {
    const twin = vectors.get(1) as Float32Array;
    // Ids 9 and 2 share a vector; 9 comes first in the scan.
    const stored = new Map([
      [9, twin],
      [5, vectors.get(2) as Float32Array],
      [2, twin],
    ]);
    const index = indexOver(stored, quantizer, undefined, budget as number);
    for (const [id, vector] of stored) index.add(id, vector, id === 2 ? "a" : "b");
    expect(index.search(twin, { k: 1 }).map((hit) => hit.id)).toEqual([2]);
    expect(index.search(twin, { k: 2 }).map((hit) => hit.id)).toEqual([2, 9]);
  });

  it("reads a vector again once its code changes (and then the best held ones, for an exact cut), and holds what it read", () => {
    const reads = { count: 0 };
    const index = indexOver(vectors, quantizer, { minRerank: vectors.size }, 2 ** 30, reads);
    for (const [id, vector] of vectors) index.addCode(id, index.encode(vector), "all");
    const first = index.search(query, { k: 5 });
    expect(reads.count).toBe(vectors.size);
    const best = first[0]?.id as number;
    index.search(query, { k: 5 });
    expect(reads.count).toBe(vectors.size);
    index.addCode(best, index.encode(vectors.get(best) as Float32Array), "all");
    expect(index.search(query, { k: 5 }).map((hit) => hit.id)).toEqual(first.map((hit) => hit.id));
    // The changed one, and the 2k = 10 best of those held.
    expect(reads.count).toBe(vectors.size + 1 + 10);
    index.search(query, { k: 5 });
    expect(reads.count).toBe(vectors.size + 11);
  });

  it("holds a stored vector handed to it, but not one for an id it does not index", () => {
    const reads = { count: 0 };
    const index = indexOver(vectors, quantizer, { minRerank: vectors.size }, 2 ** 30, reads);
    for (const [id, vector] of vectors) {
      index.addCode(id, index.encode(vector), "all");
      index.hold(id, vector);
    }
    index.hold(10_000, query);
    index.search(query, { k: 5 });
    expect(reads.count).toBe(0);
    expect(index.memoryBytes()).toBeGreaterThan(vectors.size * dimensions);
  });

  it("keeps the copy that came with a vector over an older one handed to hold later", () => {
    const index = indexOver(vectors, quantizer, { minRerank: vectors.size }, 2 ** 30);
    const [older, newer] = [vectors.get(1) as Float32Array, vectors.get(2) as Float32Array];
    index.add(7, newer, "all");
    index.hold(7, older);
    expect(index.search(newer, { k: 1 })[0]).toEqual({ id: 7, similarity: expect.closeTo(1, 2) });
  });

  it("returns nothing from an empty index or for k below 1", () => {
    expect(indexOver(vectors, quantizer).search(query, { k: 10 })).toEqual([]);
    expect(filledIndex().search(query, { k: 0 })).toEqual([]);
    expect(filledIndex().search(query, { k: Number.NaN })).toEqual([]);
  });

  it("throws a VectorDimensionError for a query, vector or code of another dimension", () => {
    const index = filledIndex();
    expect(() => index.search(new Float32Array(dimensions + 1), { k: 1 })).toThrow(VectorDimensionError);
    expect(() => index.add(1, new Float32Array(3), "all")).toThrow(/3 dimensions/);
    expect(() => index.addCode(1, new Uint8Array(5), "all")).toThrow(VectorDimensionError);
  });

  it.each([1, 7, 100, 200, 300])("works for %i dimensions", (size) => {
    const drawn = clusteredVectors(301, size, 3);
    const own = new Map(drawn.slice(0, 300).map((v, id) => [id, v] as const));
    const index = indexOver(own, untrainedQuantizer(size), { minRerank: own.size });
    for (const [id, vector] of own) index.add(id, vector, "all");
    const q = drawn[300] as Float32Array;
    const truth = bruteForce(own, q, 5);
    expect(index.search(q, { k: 5 }).map((hit) => hit.similarity)).toEqual(
      truth.map((id) => expect.closeTo(cosine(q, own.get(id) as Float32Array), 6)),
    );
  });
});
