import { describe, expect, it } from "vitest";
import { mulberry32, type Random, randomInt } from "../../../bench/seeded-random.js";
import { bm25Idf, bm25Term } from "./bm25.js";
import { KeywordIndex, type KeywordHit, type KeywordScope } from "./keyword-index.js";
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

  it("scales a phrase's part of every score by its weight, and leaves out a phrase of weight 0", () => {
    const found = index({ 1: ["film tonight", ""], 2: ["movie later", ""], 3: ["nothing here", ""] });
    const score = (weights?: number[]) => Object.fromEntries((found.search([["movi"], ["film"]], [ALL], weights)[0] ?? []).map((hit) => [hit.seq, hit.score]));
    const full = score();
    const half = score([1, 0.5]);
    expect(half[1]).toBeCloseTo((full[1] as number) / 2, 12);
    expect(half[2]).toBeCloseTo(full[2] as number, 12);
    expect(Object.keys(score([1, 0]))).toEqual(["2"]);
  });

  it("counts each group's admitted rows that hold a phrase", () => {
    const found = index({ 1: ["dbt run", ""], 2: ["dbt docs", ""], 3: ["dbt", ""], 4: ["other", ""] }, (seq) => (seq === 3 ? 256 : 0));
    expect(Object.fromEntries(found.groupCounts(["dbt"], { classes: EVERY_CLASS }))).toEqual({ 0: 2, 1: 1 });
    expect(found.groupCounts(["absent"], { classes: EVERY_CLASS }).size).toBe(0);
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
    expect([churned.classOf(3), churned.classOf(4)]).toEqual([0, undefined]);
  });

  it("changes a row's key and facets in place, keeping its tokens", () => {
    const found = index({ 1: ["redis cache", ""], 2: ["redis", ""] });
    expect(found.setFacets(1, 1, { project: "moved" })).toBe(true);
    expect(found.setFacets(9, 1, { project: "nowhere" })).toBe(false);
    expect(seqs(found, [["redi"]], { classes: classes(1), limit: 5 })).toEqual([1]);
    expect(found.facetsOf(1)).toEqual({ project: "moved" });
    expect(seqs(found, [["cach"]])).toEqual([1]);
  });

  it("tells a row's class (its key's low byte) as its key changes, and none once it is deleted", () => {
    const found = index({ 1: ["redis", ""], 2: ["redis", ""] }, (seq) => seq * 256 + seq);
    expect([found.classOf(1), found.classOf(2), found.classOf(3)]).toEqual([1, 2, undefined]);
    found.setFacets(1, 5 * 256 + 7, { project: "moved" });
    found.delete(2);
    expect([found.classOf(1), found.classOf(2)]).toEqual([7, undefined]);
    found.set(1, [tokenize("redis"), []], 1, 9, { project: "again" });
    expect(found.classOf(1)).toBe(9);
  });

  it("replaces a row set again under the same seq", () => {
    const found = index({ 1: ["postgres", ""] });
    found.set(1, [tokenize("mysql"), []], 1, 0, { project: "p0" });
    expect(seqs(found, [["postgr"]])).toEqual([]);
    expect(seqs(found, [["mysql"]])).toEqual([1]);
  });
});

/** A row as the brute-force ranking reads it. */
interface Row {
  columns: string[][];
  extra: number;
  key: number;
}

interface RandomFacets {
  seq: number;
  key: number;
}

const RANDOM_WEIGHTS = [1, 0.8, 2];
/** Few words, drawn unevenly: some are in over half the rows (floored IDF), many rows tie. */
const WORDS = ["w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9"];

function randomWord(random: Random): string {
  return WORDS[Math.min(WORDS.length - 1, Math.floor(WORDS.length * random() ** 2))] as string;
}

function randomRow(random: Random, uniform = false): Row {
  // Rows of one length, in one column, make every bound a score some row has: no slack to hide a wrong cut.
  if (uniform) return { columns: [Array.from({ length: 5 }, () => randomWord(random)), [], []], extra: 0, key: randomInt(random, 0, 4) * 256 + randomInt(random, 0, 3) };
  return {
    columns: RANDOM_WEIGHTS.map(() => Array.from({ length: randomInt(random, 0, random() < 0.2 ? 12 : 4) }, () => randomWord(random))),
    extra: randomInt(random, 0, 2),
    key: randomInt(random, 0, 4) * 256 + randomInt(random, 0, 3),
  };
}

/** The summed column weights of the phrase's occurrences in the row, or -1 when it has none. */
function frequencyIn(row: Row, phrase: readonly string[]): number {
  let frequency = -1;
  row.columns.forEach((tokens, column) => {
    for (let start = 0; start + phrase.length <= tokens.length; start++) {
      if (phrase.every((token, k) => tokens[start + k] === token)) frequency = Math.max(frequency, 0) + (RANDOM_WEIGHTS[column] as number);
    }
  });
  return frequency;
}

/** Every live row scored against every phrase in query order, then filtered, sorted and cut: the ranking the index must reproduce. */
function bruteForce(rows: Map<number, Row>, phrases: readonly string[][], scopes: readonly KeywordScope<RandomFacets>[]): KeywordHit<RandomFacets>[][] {
  const wanted = phrases.filter((phrase) => phrase.length > 0);
  const live = [...rows.entries()];
  const lengthOf = (row: Row) => row.columns.reduce((n, tokens) => n + tokens.length, 0) + row.extra;
  const average = live.reduce((n, [, row]) => n + lengthOf(row), 0) / live.length;
  const idfs = wanted.map((phrase) => bm25Idf(live.length, live.filter(([, row]) => frequencyIn(row, phrase) >= 0).length));
  const scored = live.flatMap(([seq, row]) => {
    let score = 0;
    let held = 0;
    wanted.forEach((phrase, i) => {
      const frequency = frequencyIn(row, phrase);
      if (frequency < 0) return;
      held += 1;
      score += bm25Term(idfs[i] as number, frequency, lengthOf(row), average);
    });
    return held === 0 ? [] : [{ seq, score, full: held === wanted.length, facets: { seq, key: row.key } }];
  });
  scored.sort((a, b) => Number(b.full) - Number(a.full) || b.score - a.score || a.seq - b.seq);
  return scopes.map((scope) =>
    scored
      .filter(({ facets: { key } }) => scope.classes[key % 256] === 1 && (scope.groups === undefined || scope.groups[Math.floor(key / 256)] === 1))
      .filter((hit) => !scope.accept || scope.accept(hit.facets))
      .slice(0, Math.max(0, scope.limit)),
  );
}

function randomScope(random: Random): KeywordScope<RandomFacets> {
  const on = (n: number, p: number) => Uint8Array.from({ length: n }, () => (random() < p ? 1 : 0));
  const wide = random() < 0.5;
  return {
    classes: wide ? classes(0, 1, 2, 3) : on(4, 0.6),
    groups: wide || random() < 0.3 ? undefined : on(5, 0.4),
    accept: random() < 0.15 ? (facets) => facets.seq % 3 !== 0 : undefined,
    limit: [0, 1, 2, 3, 5, 10, 20, 200][randomInt(random, 0, 7)] as number,
  };
}

function randomQuery(random: Random): string[][] {
  return Array.from({ length: randomInt(random, 1, 5) }, () => {
    if (random() < 0.05) return ["absent"];
    if (random() < 0.03) return [];
    return Array.from({ length: random() < 0.2 ? 2 : 1 }, () => randomWord(random));
  });
}

function randomIndex(random: Random, count: number, uniform: boolean): { index: KeywordIndex<RandomFacets>; rows: Map<number, Row> } {
  const index = new KeywordIndex<RandomFacets>(RANDOM_WEIGHTS);
  const rows = new Map<number, Row>();
  const put = (seq: number, row: Row) => {
    index.set(seq, row.columns, row.extra, row.key, { seq, key: row.key });
    rows.set(seq, row);
  };
  for (let seq = 1; seq <= count; seq++) put(seq, randomRow(random, uniform));
  // Deleted and replaced rows leave dead slots behind in the lists.
  for (let seq = 1; seq <= count; seq++) {
    const roll = random();
    if (roll < 0.15) {
      index.delete(seq);
      rows.delete(seq);
    } else if (roll < 0.2) {
      put(seq, randomRow(random, uniform));
    }
  }
  return { index, rows };
}

describe("KeywordIndex search against a brute-force ranking", () => {
  for (const [seed, count, uniform] of [[1, 60, false], [2, 400, false], [3, 1500, false], [4, 3000, false], [6, 1000, true], [7, 3000, true]] as const) {
    it(`returns exactly the brute-force rows, order and scores over ${count} random ${uniform ? "equally long " : ""}rows (seed ${seed})`, () => {
      const random = mulberry32(seed);
      const { index, rows } = randomIndex(random, count, uniform);
      for (let q = 0; q < 150; q++) {
        const query = randomQuery(random);
        const scopes = Array.from({ length: randomInt(random, 1, 3) }, () => randomScope(random));
        expect(index.search(query, scopes), JSON.stringify(query)).toEqual(bruteForce(rows, query, scopes));
      }
    });
  }

  it("ranks a search by one common term, read best first from its list's score order, exactly like the brute force as rows come and go", () => {
    const random = mulberry32(11);
    // Enough rows for the commonest words' lists to be kept in score order.
    const { index, rows } = randomIndex(random, 9000, false);
    const put = (seq: number, row: Row) => {
      index.set(seq, row.columns, row.extra, row.key, { seq, key: row.key });
      rows.set(seq, row);
    };
    const check = () => {
      for (const query of [[["w0"]], [["w1"]], [["w0"], ["absent"]], [["w2"]]]) {
        for (let q = 0; q < 4; q++) {
          const scopes = Array.from({ length: randomInt(random, 1, 3) }, () => ({ ...randomScope(random), accept: undefined }));
          expect(index.search(query, scopes), JSON.stringify(query)).toEqual(bruteForce(rows, query, scopes));
        }
      }
    };
    check();
    // Rows added, replaced and deleted after the score order was built must land in it.
    for (let seq = 9001; seq <= 9600; seq++) put(seq, randomRow(random));
    for (let seq = 1; seq <= 9600; seq += 7) put(seq, randomRow(random));
    for (let seq = 3; seq <= 9600; seq += 11) {
      index.delete(seq);
      rows.delete(seq);
    }
    check();
  });

  it("ranks a common term for a scope that admits too few rows to fill, by falling back to the plain scan", () => {
    const random = mulberry32(12);
    const { index, rows } = randomIndex(random, 9000, false);
    // Group 4 of class 3 holds about 1 row in 20; a limit of 500 cannot fill from it.
    const scopes = [
      { classes: classes(3), groups: Uint8Array.of(0, 0, 0, 0, 1), limit: 500 },
      { classes: classes(0, 1, 2, 3), limit: 5 },
    ];
    for (const query of [[["w0"]], [["w1"]]]) expect(index.search(query, scopes)).toEqual(bruteForce(rows, query, scopes));
  });

  it("ranks exactly like the brute force after compacting away many deleted rows", () => {
    const random = mulberry32(5);
    const index = new KeywordIndex<RandomFacets>(RANDOM_WEIGHTS);
    const rows = new Map<number, Row>();
    for (let seq = 1; seq <= 3000; seq++) {
      const row = randomRow(random);
      index.set(seq, row.columns, row.extra, row.key, { seq, key: row.key });
      rows.set(seq, row);
    }
    for (let seq = 1; seq <= 3000; seq++) {
      if (seq % 5 === 0) continue;
      index.delete(seq);
      rows.delete(seq);
    }
    expect(index.size).toBe(600);
    for (let q = 0; q < 100; q++) {
      const query = randomQuery(random);
      const scopes = Array.from({ length: randomInt(random, 1, 3) }, () => randomScope(random));
      expect(index.search(query, scopes), JSON.stringify(query)).toEqual(bruteForce(rows, query, scopes));
    }
  });

  it("orders rows of equal score by seq, across scopes of different limits", () => {
    const index = new KeywordIndex<RandomFacets>(RANDOM_WEIGHTS);
    const rows = new Map<number, Row>();
    for (let seq = 1; seq <= 500; seq++) {
      const row: Row = { columns: [seq % 4 === 0 ? ["w1", "w2"] : ["w1"], ["w3"], []], extra: 0, key: seq % 3 };
      index.set(seq, row.columns, row.extra, row.key, { seq, key: row.key });
      rows.set(seq, row);
    }
    const scopes = [
      { classes: classes(0), limit: 7 },
      { classes: classes(0, 1, 2), limit: 150 },
      { classes: classes(2), groups: Uint8Array.of(1), limit: 3 },
    ];
    for (const query of [[["w1"], ["w2"]], [["w2"], ["w1"], ["w3"]], [["w3"], ["w2"]], [["w1", "w2"], ["w3"]]]) {
      expect(index.search(query, scopes)).toEqual(bruteForce(rows, query, scopes));
    }
  });
});
