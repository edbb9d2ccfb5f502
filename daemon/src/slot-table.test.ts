import { describe, expect, it } from "vitest";
import { SlotTable } from "./slot-table.js";

describe("SlotTable", () => {
  it("finds each key's slot, slot 0 included, and forgets deleted keys", () => {
    const table = new SlotTable();
    table.set(7, 0);
    table.set(3000, 12);
    expect(table.get(7)).toBe(0);
    expect(table.get(3000)).toBe(12);
    expect(table.get(8)).toBeUndefined();
    table.set(7, 5);
    table.delete(3000);
    expect([table.get(7), table.get(3000)]).toEqual([5, undefined]);
  });

  it("keeps keys the table cannot index (negative, fractional, past its bound) in a map", () => {
    const table = new SlotTable();
    for (const [key, slot] of [[-4, 1], [2.5, 2], [2 ** 40, 3]] as const) table.set(key, slot);
    expect([table.get(-4), table.get(2.5), table.get(2 ** 40), table.get(2)]).toEqual([1, 2, 3, undefined]);
    table.delete(2 ** 40);
    expect(table.get(2 ** 40)).toBeUndefined();
    expect(table.byteLength).toBeLessThan(1024);
  });
});
