import { describe, expect, it } from "vitest";
import { KeywordIndex, type KeywordScope } from "./keyword-index.js";
import { tokenize } from "./tokenize.js";

interface Facets {
  project: string;
}

const WEIGHTS = [1, 2];
/** Key classes to admit, as a scope takes them. */
function classes(...admitted: number[]): Uint8Array {
  const on = new Uint8Array(256);
  for (const at of admitted) on[at] = 1;
  return on;
}
const EVERY_CLASS = classes(0, 1);
const ALL: KeywordScope<Facets> = { classes: EVERY_CLASS, limit: 100 };

function index(rows: Record<number, [string, string]>, keyOf: (seq: number) => number = () => 0): KeywordIndex<Facets> {
  const built = new KeywordIndex<Facets>(WEIGHTS);
  for (const [seq, columns] of Object.entries(rows)) {
    built.set(Number(seq), columns.map(tokenize), 1, keyOf(Number(seq)), { project: `p${keyOf(Number(seq))}` });
  }
  return built;
}

function seqs(found: KeywordIndex<Facets>, query: string[][], scope: KeywordScope<Facets> = ALL): number[] {
  return (found.search(query, [scope])[0] ?? []).map((hit) => hit.seq);
}

describe("KeywordIndex", () => {
  it("ranks rows holding every phrase above rows that score higher on some", () => {
    const found = index({ 1: ["retry retry retry retry", ""], 2: ["retry once with jitter", ""], 3: ["jitter", ""] });
    const hits = found.search([["retri"], ["jitter"]], [ALL])[0] ?? [];
    expect(hits.map((hit) => [hit.seq, hit.full])).toEqual([[2, true], [1, false], [3, false]]);
  });

  it("matches a phrase only in order and within one column, weighing the column", () => {
    const found = index({ 1: ["session ts", ""], 2: ["ts session", ""], 3: ["auth session", "ts"], 4: ["", "session ts"] });
    expect(seqs(found, [["session", "ts"]])).toEqual([4, 1]);
  });

  it("gives each scope its own filter and limit from one pass", () => {
    const found = index({ 1: ["cache eviction", ""], 2: ["cache", ""], 3: ["cache cache", ""], 4: ["eviction", ""] }, (seq) => seq % 2);
    const [odd, any] = found.search([["cach"], ["evict"]], [{ classes: classes(1), limit: 5 }, { classes: EVERY_CLASS, limit: 2 }]);
    expect(odd?.map((hit) => hit.seq)).toEqual([1, 3]);
    expect(any?.map((hit) => hit.seq)).toEqual([1, 3]);
  });

  it("admits rows by the groups of their keys", () => {
    const found = index({ 1: ["cache", ""], 2: ["cache", ""], 3: ["cache", ""] });
    found.set(4, [["cach"], []], 1, 2 * 256, { project: "p512" });
    found.set(5, [["cach"], []], 1, 3 * 256 + 1, { project: "p769" });
    const [inGroups] = found.search([["cach"]], [{ classes: EVERY_CLASS, groups: Uint8Array.of(0, 0, 1, 1), limit: 10 }]);
    expect(inGroups?.map((hit) => hit.seq).sort()).toEqual([4, 5]);
  });

  it("asks accept only about rows that would make the top", () => {
    const found = index({ 1: ["redis", ""], 2: ["redis redis", ""], 3: ["redis and more words here", ""] });
    const asked: string[] = [];
    const hits = found.search([["redi"]], [{ classes: EVERY_CLASS, accept: (facets) => (asked.push(facets.project), true), limit: 1 }])[0];
    expect(hits?.map((hit) => hit.seq)).toEqual([2]);
    expect(asked.length).toBeLessThan(3);
  });

  it("never returns a deleted row, and ranks the same after compacting away many deletions", () => {
    const rows: Record<number, [string, string]> = {};
    for (let seq = 1; seq <= 3000; seq++) rows[seq] = [`note ${seq % 7 === 0 ? "webhook retry" : "cache"} number ${seq}`, seq % 5 === 0 ? "webhook" : ""];
    const churned = index(rows);
    const kept: Record<number, [string, string]> = {};
    for (let seq = 1; seq <= 3000; seq++) {
      if (seq % 3 === 0) kept[seq] = rows[seq] as [string, string];
      else churned.delete(seq);
    }
    const fresh = index(kept);
    const query = [["webhook"], ["retri"]];
    expect(churned.size).toBe(1000);
    expect(churned.search(query, [ALL])).toEqual(fresh.search(query, [ALL]));
    const numbered = seqs(churned, [["number"]], { classes: EVERY_CLASS, limit: 5000 });
    expect(numbered).toHaveLength(1000);
    expect(numbered.every((seq) => seq % 3 === 0)).toBe(true);
  });

  it("changes a row's key and facets in place, keeping its tokens", () => {
    const found = index({ 1: ["redis cache", ""], 2: ["redis", ""] });
    expect(found.setFacets(1, 1, { project: "moved" })).toBe(true);
    expect(found.setFacets(9, 1, { project: "nowhere" })).toBe(false);
    expect(seqs(found, [["redi"]], { classes: classes(1), limit: 5 })).toEqual([1]);
    expect(found.facetsOf(1)).toEqual({ project: "moved" });
    expect(seqs(found, [["cach"]])).toEqual([1]);
  });

  it("replaces a row set again under the same seq", () => {
    const found = index({ 1: ["postgres", ""] });
    found.set(1, [tokenize("mysql"), []], 1, 0, { project: "p0" });
    expect(seqs(found, [["postgr"]])).toEqual([]);
    expect(seqs(found, [["mysql"]])).toEqual([1]);
  });
});
