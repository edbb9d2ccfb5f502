import { describe, expect, it } from "vitest";
import { type AgingMemory, DEFAULT_CLUSTER_CONFIG, clusterAgingMemories } from "./cluster-aging.js";

const config = DEFAULT_CLUSTER_CONFIG;

function aging(id: string, vector: number[] | null, overrides: Partial<AgingMemory["memory"]> = {}, decayWeight = 0.2): AgingMemory {
  return { memory: { id, project: "api", kind: "fact", status: "active", pinned: false, author: "", ...overrides }, decayWeight, vector };
}

/** A unit vector at `degrees` in the plane: cos(angle between two) is their similarity. */
function at(degrees: number): number[] {
  const r = (degrees * Math.PI) / 180;
  return [Math.cos(r), Math.sin(r)];
}

const ids = (clusters: AgingMemory[][]) => clusters.map((c) => c.map((m) => m.memory.id));

describe("clusterAgingMemories", () => {
  it("groups aging memories more similar than 0.8", () => {
    // cos 30° ≈ 0.87; cos 90° = 0.
    const clusters = clusterAgingMemories([aging("A", at(0)), aging("B", at(30)), aging("C", at(90))], config);
    expect(ids(clusters)).toEqual([["A", "B"]]);
  });

  it("leaves another person's memories out: merged into one of the person's own, their words would pass for the person's", () => {
    const clusters = clusterAgingMemories([aging("A", at(0)), aging("B", at(10), { author: "bo" }), aging("C", at(20))], config);
    expect(ids(clusters)).toEqual([["A", "C"]]);
  });

  it("does not group at exactly the threshold", () => {
    const clusters = clusterAgingMemories([aging("A", [1, 0]), aging("B", [0.8, 0.6])], config);
    expect(clusters).toEqual([]);
  });

  it("gives the same clusters whatever the input order", () => {
    const items = [aging("A", at(0)), aging("B", at(20)), aging("C", at(40)), aging("D", at(60)), aging("E", at(200))];
    const expected = ids(clusterAgingMemories(items, config));
    expect(ids(clusterAgingMemories([...items].reverse(), config))).toEqual(expected);
    expect(ids(clusterAgingMemories([items[3]!, items[0]!, items[4]!, items[2]!, items[1]!], config))).toEqual(expected);
  });

  it("does not chain: every pair in a cluster is similar", () => {
    // A~B (cos 30°) and B~C (cos 30°), but A and C are 60° apart (0.5).
    const clusters = clusterAgingMemories([aging("A", at(0)), aging("B", at(30)), aging("C", at(60))], config);
    expect(ids(clusters)).toEqual([["A", "B"]]);
  });

  it("takes memories in id order, so the oldest seeds each cluster", () => {
    const clusters = clusterAgingMemories([aging("C", at(60)), aging("B", at(30)), aging("A", at(0)), aging("D", at(90))], config);
    expect(ids(clusters)).toEqual([["A", "B"], ["C", "D"]]);
  });

  it("only clusters within the same project and kind", () => {
    const clusters = clusterAgingMemories(
      [aging("A", at(0)), aging("B", at(0), { project: "web" }), aging("C", at(0), { kind: "decision" })],
      config,
    );
    expect(clusters).toEqual([]);
  });

  it("leaves out fresh, pinned, inactive and unembedded memories", () => {
    const clusters = clusterAgingMemories(
      [
        aging("A", at(0)),
        aging("B", at(0), {}, 0.3),
        aging("C", at(0), { pinned: true }),
        aging("D", at(0), { status: "staged" }),
        aging("E", at(0), { status: "archived" }),
        aging("F", null),
      ],
      config,
    );
    expect(clusters).toEqual([]);
  });

  it("caps cluster size and starts a new cluster past it", () => {
    const items = ["A", "B", "C", "D", "E"].map((id) => aging(id, at(0)));
    expect(ids(clusterAgingMemories(items, { ...config, maxClusterSize: 2 }))).toEqual([["A", "B"], ["C", "D"]]);
  });

  it("orders clusters by their first id across groups", () => {
    const clusters = clusterAgingMemories(
      [aging("B", at(0), { project: "z" }), aging("D", at(0), { project: "z" }), aging("A", at(0)), aging("C", at(0))],
      config,
    );
    expect(ids(clusters)).toEqual([["A", "C"], ["B", "D"]]);
  });

  it("returns the caller's own items", () => {
    const item = { ...aging("A", at(0)), extra: 1 };
    const [cluster] = clusterAgingMemories([item, { ...aging("B", at(0)), extra: 2 }], config);
    expect(cluster?.[0]).toBe(item);
  });
});
