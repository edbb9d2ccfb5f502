import { describe, expect, it } from "vitest";
import { EntityIndex, type EntitySearch } from "./entity-index.js";

interface Facets {
  project: string;
}

function search(index: EntityIndex<Facets>, keys: string[], extra: Partial<EntitySearch<Facets>> = {}) {
  return index.search({ keys, accept: () => true, limit: 10, hopFrom: 0, hopEntities: 0, hopDiscount: 0.3, ...extra });
}

describe("EntityIndex", () => {
  it("ranks a memory naming a rare entity above ones naming a common one", () => {
    const index = new EntityIndex<Facets>();
    index.set(1, ["pay-1423", "stripe"], { project: "a" });
    for (let seq = 2; seq <= 5; seq++) index.set(seq, ["stripe"], { project: "a" });
    const hits = search(index, ["stripe", "pay-1423"]);
    expect(hits[0]).toEqual({ seq: 1, score: 1 + 1 / 5, path: ["stripe", "pay-1423"], facets: { project: "a" } });
    expect(hits.slice(1).map((hit) => hit.seq)).toEqual([2, 3, 4, 5]);
    expect(hits[1]?.score).toBeCloseTo(1 / 5);
  });

  it("returns only memories the filter accepts, and nothing for unknown keys", () => {
    const index = new EntityIndex<Facets>();
    index.set(1, ["redis"], { project: "a" });
    index.set(2, ["redis"], { project: "b" });
    expect(search(index, ["redis"], { accept: (facets) => facets.project === "b" }).map((hit) => hit.seq)).toEqual([2]);
    expect(search(index, ["nothing-like-it"])).toEqual([]);
  });

  it("hops one step to memories sharing an entity with the best direct hits, at a discount", () => {
    const index = new EntityIndex<Facets>();
    index.set(1, ["webhook-worker", "idempotency-key"], { project: "a" });
    index.set(2, ["idempotency-key", "ledger"], { project: "a" });
    index.set(3, ["ledger"], { project: "a" });
    const hits = search(index, ["webhook-worker"], { hopFrom: 1, hopEntities: 5 });
    expect(hits.map((hit) => hit.seq)).toEqual([1, 2]);
    expect(hits[1]).toEqual({ seq: 2, score: 0.3 / 2, path: ["idempotency-key"], facets: { project: "a" } });
  });

  it("does not hop through an entity that half the store names", () => {
    const index = new EntityIndex<Facets>();
    index.set(1, ["checkout", "payments"], { project: "a" });
    for (let seq = 2; seq <= 60; seq++) index.set(seq, ["payments"], { project: "a" });
    expect(search(index, ["checkout"], { hopFrom: 1, hopEntities: 5 }).map((hit) => hit.seq)).toEqual([1]);
  });

  it("forgets a deleted memory and replaces a memory's links when set again", () => {
    const index = new EntityIndex<Facets>();
    index.set(1, ["redis"], { project: "a" });
    index.set(2, ["redis"], { project: "a" });
    index.delete(1);
    index.set(2, ["postgres"], { project: "a" });
    expect(search(index, ["redis"])).toEqual([]);
    expect(search(index, ["postgres"]).map((hit) => hit.seq)).toEqual([2]);
  });

  it("keeps the best of many hits, best first, by score then seq", () => {
    const index = new EntityIndex<Facets>();
    for (let seq = 1; seq <= 500; seq++) index.set(seq, seq % 7 === 0 ? ["cache", "eviction"] : ["cache"], { project: "a" });
    const hits = search(index, ["cache", "eviction"], { limit: 3 });
    expect(hits.map((hit) => hit.seq)).toEqual([7, 14, 21]);
  });
});
