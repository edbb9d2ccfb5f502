import { describe, expect, it } from "vitest";
import { GroupSizes, rowsInGroups } from "./term-statistics.js";

const groups = (...on: number[]) => {
  const set = new Uint8Array(Math.max(0, ...on) + 1);
  for (const group of on) set[group] = 1;
  return set;
};

describe("GroupSizes", () => {
  it("sums the rows and tokens of the groups asked for, and of no others", () => {
    const sizes = new GroupSizes();
    sizes.add(0, 10);
    sizes.add(1, 4);
    sizes.add(1, 6);
    sizes.add(40, 3);
    expect(sizes.of(groups(1))).toEqual({ rows: 2, tokens: 10 });
    expect(sizes.of(groups(0, 1))).toEqual({ rows: 3, tokens: 20 });
    expect(sizes.of(groups(40))).toEqual({ rows: 1, tokens: 3 });
    expect(sizes.of(groups(99))).toEqual({ rows: 0, tokens: 0 });
  });

  it("takes a removed row back out of its group", () => {
    const sizes = new GroupSizes();
    sizes.add(2, 5);
    sizes.add(2, 7);
    sizes.remove(2, 5);
    expect(sizes.of(groups(2))).toEqual({ rows: 1, tokens: 7 });
  });
});

describe("rowsInGroups", () => {
  it("counts the slots whose key's group is asked for, and no dead slot", () => {
    // Keys: group 0, group 1, group 1, a dead slot (class 255 of the last group).
    const keys = Uint32Array.of(0 * 256 + 3, 1 * 256 + 3, 1 * 256 + 7, 0xffff_ffff);
    const slots = Int32Array.of(0, 1, 2, 3, 0);
    expect(rowsInGroups(slots, 4, keys, groups(1))).toBe(2);
    expect(rowsInGroups(slots, 4, keys, groups(0, 1))).toBe(3);
    expect(rowsInGroups(slots, 5, keys, groups(0))).toBe(2);
  });
});
