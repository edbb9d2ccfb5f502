import { describe, expect, it } from "vitest";
import { appendPosting, emptyPostingList, FrequencyTable, frequencyAt } from "./posting-list.js";

describe("a posting list's frequencies", () => {
  it("gives back each posting's weighted frequency exactly, a value shared by many postings kept once", () => {
    const table = new FrequencyTable();
    const list = emptyPostingList(4, table);
    const frequencies = [0.1 + 0.2 + 0.3, 0.3 + 0.2 + 0.1, 2, 1.2, 2, 0.1 + 0.2 + 0.3];
    frequencies.forEach((frequency, slot) => appendPosting(list, slot, frequency, 10 + slot));
    expect(frequencies.map((_, i) => frequencyAt(list, i))).toEqual(frequencies);
    // 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit: both are kept as they are.
    expect(0.1 + 0.2 + 0.3).not.toBe(0.3 + 0.2 + 0.1);
    expect(table.values.subarray(0, 5)).toEqual(new Float64Array([0.1 + 0.2 + 0.3, 0.3 + 0.2 + 0.1, 2, 1.2, 0]));
    expect(list).toMatchObject({ size: 6, live: 6, maxFrequency: 2, minLength: 10 });
  });

  it("widens a list whose frequencies are numbered past 65,535, losing none", () => {
    const table = new FrequencyTable();
    const list = emptyPostingList(4, table);
    const count = 70_000;
    for (let slot = 0; slot < count; slot++) appendPosting(list, slot, slot + 0.5, 1);
    expect(list.frequencies).toBeInstanceOf(Uint32Array);
    for (let i = 0; i < count; i++) if (frequencyAt(list, i) !== i + 0.5) throw new Error(`posting ${i} reads ${frequencyAt(list, i)}`);
    expect(list.size).toBe(count);
  });
});
