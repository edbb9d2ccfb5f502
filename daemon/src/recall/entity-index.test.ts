import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../../bench/seeded-random.js";
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

  it("keeps every row's current links when rows are linked again many times over", () => {
    const index = new EntityIndex<Facets>();
    index.set(1, ["kafka", "outbox"], { project: "a" });
    // Enough relinks that the links left behind outgrow the live ones many times.
    for (let round = 0; round < 50_000; round++) index.set(2, ["outbox", `retry-${round % 3}`], { project: "a" });
    index.delete(3);
    expect(search(index, ["kafka"], { hopFrom: 1, hopEntities: 5 }).map((hit) => [hit.seq, hit.path])).toEqual([[1, ["kafka"]], [2, ["outbox"]]]);
    expect(search(index, ["retry-1"]).map((hit) => hit.seq)).toEqual([2]);
    expect(search(index, ["retry-2"])).toEqual([]);
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

  it("does not stop early on a rounding: a row tying the limit-th score with a lower seq still wins", () => {
    const index = new EntityIndex<Facets>();
    index.set(10, ["a"], { project: "p" });
    index.set(11, ["a"], { project: "p" });
    // Seq 1 names b, c and d (1/6 each: 0.5 in all, as much as a gives 10 and 11).
    index.set(1, ["b", "c", "d"], { project: "p" });
    let filler = 100;
    for (const key of ["b", "c", "d"]) for (let i = 0; i < 5; i++) index.set(filler++, [key], { project: "p" });
    const top = (limit: number) => search(index, ["a", "b", "c", "d"], { limit }).map((hit) => hit.seq);
    expect(top(2)).toEqual([1, 10]);
    expect(top(20).slice(0, 2)).toEqual([1, 10]);
  });

  it("finds exactly the best rows a full count finds, though common entities' rows are not all visited", () => {
    const random = mulberry32(42);
    const index = new EntityIndex<Facets>();
    const links = new Map<number, string[]>();
    const projects = new Map<number, Facets>();
    // Entity sizes from a handful of rows to most of the store, as concepts spread in real memories.
    const entities = Array.from({ length: 40 }, (_, e) => ({ key: `e${e}`, share: 0.9 / (e + 1) ** 1.3 }));
    for (let seq = 1; seq <= 2000; seq++) {
      const keys = entities.filter((entity) => random() < entity.share).map((entity) => entity.key);
      const facets = { project: random() < 0.2 ? "a" : "b" };
      links.set(seq, keys);
      projects.set(seq, facets);
      index.set(seq, keys, facets);
    }
    for (let q = 0; q < 200; q++) {
      const keys = Array.from({ length: 1 + Math.floor(random() * 4) }, () => `e${Math.floor(random() * 40)}`);
      const limit = [1, 5, 50][q % 3] as number;
      const accept = q % 2 === 0 ? () => true : (facets: Facets) => facets.project === "a";
      const found = search(index, keys, { limit, accept });
      const expected = fullCount(links, projects, keys, limit, accept);
      expect(found.map((hit) => hit.seq)).toEqual(expected.map((hit) => hit.seq));
      found.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]?.score as number, 12));
    }
  });
});

/** Every row of every entity counted, rarest entity first, as the index adds them. */
function fullCount(links: Map<number, string[]>, projects: Map<number, Facets>, keys: string[], limit: number, accept: (facets: Facets) => boolean) {
  const rowsOf = (key: string) => [...links].filter(([, named]) => named.includes(key)).map(([seq]) => seq);
  const known = [...new Set(keys)].filter((key) => rowsOf(key).length > 0);
  const order = known.sort((a, b) => rowsOf(a).length - rowsOf(b).length || Number(a.slice(1)) - Number(b.slice(1)));
  const scores = new Map<number, number>();
  for (const key of order) {
    const rows = rowsOf(key);
    for (const seq of rows) scores.set(seq, (scores.get(seq) ?? 0) + 1 / rows.length);
  }
  return [...scores]
    .filter(([seq]) => accept(projects.get(seq) as Facets))
    .sort(([seqA, a], [seqB, b]) => b - a || seqA - seqB)
    .slice(0, limit)
    .map(([seq, score]) => ({ seq, score }));
}
