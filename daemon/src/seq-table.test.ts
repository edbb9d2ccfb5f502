import { describe, expect, it } from "vitest";
import { SeqTable } from "./seq-table.js";

describe("SeqTable", () => {
  it("finds each key's slot, slot 0 included, and forgets deleted keys", () => {
    const table = new SeqTable();
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
    const table = new SeqTable();
    for (const [key, slot] of [[-4, 1], [2.5, 2], [2 ** 40, 3]] as const) table.set(key, slot);
    expect([table.get(-4), table.get(2.5), table.get(2 ** 40), table.get(2)]).toEqual([1, 2, 3, undefined]);
    table.delete(2 ** 40);
    expect(table.get(2 ** 40)).toBeUndefined();
    expect(table.byteLength).toBeLessThan(1024);
  });

  it("holds byte values in one byte per key, and a value too large for a byte in the map", () => {
    const table = new SeqTable("bytes");
    table.set(0, 0);
    table.set(5, 254);
    table.set(6, 255);
    table.set(7, 70_000);
    expect([table.get(0), table.get(5), table.get(6), table.get(7), table.get(8)]).toEqual([0, 254, 255, 70_000, undefined]);
    table.set(6, 3);
    table.delete(7);
    table.set(5000, 300);
    table.set(5000, 1);
    expect([table.get(6), table.get(7), table.get(5000)]).toEqual([3, undefined, 1]);
    expect(table.byteLength).toBe(5001);
  });
});
