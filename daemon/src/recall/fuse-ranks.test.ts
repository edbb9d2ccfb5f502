import { describe, expect, it } from "vitest";
import { fuseInto, fuseRanks, type RankedSource } from "./fuse-ranks.js";

describe("fuseRanks", () => {
  it("rewards candidates that several sources agree on", () => {
    const fused = fuseRanks([
      { name: "keyword", weight: 1, ids: ["a", "b", "c"] },
      { name: "vector", weight: 1, ids: ["c", "d"] },
    ]);
    expect(fused[0]?.id).toBe("c");
    expect(fused[0]?.ranks).toEqual({ keyword: 3, vector: 1 });
  });

  it("lets a weak source reorder but not outvote the strong source's top hits", () => {
    const keyword = Array.from({ length: 10 }, (_, i) => `k${i}`);
    const fused = fuseRanks([
      { name: "keyword", weight: 1, ids: keyword },
      { name: "vector", weight: 0.5, ids: ["v-only", "k9"] },
    ]);
    const order = fused.map((c) => c.id);
    expect(order.indexOf("k9")).toBeLessThan(order.indexOf("k8"));
    expect(order.indexOf("v-only")).toBeGreaterThan(order.indexOf("k8"));
  });

  it("ignores sources with zero weight and counts a repeated id once", () => {
    const fused = fuseRanks([
      { name: "keyword", weight: 1, ids: ["a", "a"] },
      { name: "graph", weight: 0, ids: ["z"] },
    ]);
    expect(fused.map((c) => c.id)).toEqual(["a"]);
    expect(fused[0]?.score).toBeCloseTo(1 / 61, 10);
  });

  it("breaks ties by id so the order is deterministic", () => {
    const fused = fuseRanks([
      { name: "a", weight: 1, ids: ["y"] },
      { name: "b", weight: 1, ids: ["x"] },
    ]);
    expect(fused.map((c) => c.id)).toEqual(["x", "y"]);
  });

  it("counts a calibrated candidate by its strength, so a weak first place loses to a strong second", () => {
    const fused = fuseRanks(
      [
        { name: "keyword", weight: 1, ids: ["weak", "strong"], strengths: [0.2, 1] },
        { name: "vector", weight: 0.3, ids: ["other"] },
      ],
      5,
    );
    expect(fused.map((c) => c.id)).toEqual(["strong", "other", "weak"]);
    expect(fused[0]?.score).toBeCloseTo(1 / 7, 10);
    expect(fused[2]?.score).toBeCloseTo(0.2 / 6, 10);
  });

  it("scores alike whether the sources are fused at once or some first and the rest later", () => {
    const first: RankedSource[] = [
      { name: "keyword", weight: 1, ids: ["a", "b", "c"], strengths: [1, 0.6, 0.2] },
      { name: "graph", weight: 0.5, ids: ["c", "d"] },
    ];
    const later: RankedSource[] = [{ name: "vector", weight: 0.3, ids: ["d", "a", "e"] }];
    const stepwise = fuseInto(fuseInto(new Map(), first, 5), later, 5);
    const atOnce = fuseRanks([...first, ...later], 5);
    expect(atOnce.map((c) => c.id).sort()).toEqual([...stepwise.keys()].sort());
    for (const candidate of atOnce) {
      expect(stepwise.get(candidate.id)?.ranks).toEqual(candidate.ranks);
      expect(stepwise.get(candidate.id)?.score).toBeCloseTo(candidate.score, 12);
    }
  });
});

describe("fuseInto with scores", () => {
  it("gives candidates with equal scores one rank, so that a tie stays a tie", () => {
    const fused = fuseInto(new Map(), [{ name: "keyword", weight: 1, ids: ["a", "b", "c"], scores: [5, 5, 2] }], 5);
    expect(fused.get("a")?.score).toBe(fused.get("b")?.score);
    expect(fused.get("b")?.ranks.keyword).toBe(1);
    expect(fused.get("c")?.ranks.keyword).toBe(3);
  });
});
