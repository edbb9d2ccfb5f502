import { describe, expect, it } from "vitest";
import { TermStatistics } from "./term-statistics.js";

const groups = (...on: number[]) => {
  const set = new Uint8Array(Math.max(0, ...on) + 1);
  for (const group of on) set[group] = 1;
  return set;
};

describe("TermStatistics", () => {
  it("counts the rows holding a term in the groups asked for, and in no others", () => {
    const statistics = new TermStatistics();
    statistics.add([0, 1], 0, 10);
    statistics.add([0], 0, 4);
    statistics.add([0, 2], 3, 6);
    expect(statistics.rowsWith(0, groups(0))).toBe(2);
    expect(statistics.rowsWith(0, groups(3))).toBe(1);
    expect(statistics.rowsWith(0, groups(0, 3))).toBe(3);
    expect(statistics.rowsWith(1, groups(3))).toBe(0);
    expect(statistics.rowsWith(2, groups(0, 3))).toBe(1);
    expect(statistics.rowsWith(7, groups(0, 3))).toBe(0);
  });

  it("sums the rows and tokens of the groups asked for", () => {
    const statistics = new TermStatistics();
    statistics.add([0], 0, 10);
    statistics.add([0], 1, 4);
    statistics.add([1], 1, 6);
    expect(statistics.size(groups(1))).toEqual({ rows: 2, tokens: 10 });
    expect(statistics.size(groups(0, 1))).toEqual({ rows: 3, tokens: 20 });
    expect(statistics.size(groups(5))).toEqual({ rows: 0, tokens: 0 });
  });

  it("takes a removed row back out of its group, whichever group first held the term", () => {
    const statistics = new TermStatistics();
    statistics.add([0], 2, 5);
    statistics.add([0], 1, 5);
    statistics.remove([0], 2, 5);
    expect(statistics.rowsWith(0, groups(1, 2))).toBe(1);
    statistics.remove([0], 1, 5);
    expect(statistics.rowsWith(0, groups(1, 2))).toBe(0);
    expect(statistics.size(groups(1, 2))).toEqual({ rows: 0, tokens: 0 });
    statistics.add([0], 1, 3);
    expect(statistics.rowsWith(0, groups(1))).toBe(1);
  });
});
