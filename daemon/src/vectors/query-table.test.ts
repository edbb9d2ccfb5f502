import { describe, expect, it } from "vitest";
import { readCodeWords } from "./code-words.js";
import { buildQueryTable, tableSum } from "./query-table.js";
import { encodeVector, queryWeights, untrainedQuantizer } from "./sign-quantizer.js";

describe("query table", () => {
  it("scores a code as the sum of +query over its set bits and -query over its clear ones", () => {
    const dimensions = 77;
    const query = Float32Array.from({ length: dimensions }, (_, d) => Math.sin(d * 1.7));
    const vector = Float32Array.from({ length: dimensions }, (_, d) => Math.cos(d * 2.3));
    const quantizer = untrainedQuantizer(dimensions);
    const code = encodeVector(quantizer, vector);
    const words = new Int32Array(3);
    readCodeWords(code, Math.ceil(dimensions / 8), 0, 3, words, 0);
    const table = buildQueryTable(queryWeights(quantizer, query), 3);
    let expected = 0;
    for (let d = 0; d < dimensions; d += 1) expected += ((vector[d] as number) >= 0 ? 1 : -1) * (query[d] as number);
    expect(tableSum(table, words, 0, 3, 0)).toBeCloseTo(expected, 9);
    // The same sum taken in two parts, as the index does with the prefix and the rest.
    const split = tableSum(table, words, 0, 1, 0) + tableSum(table, words, 1, 2, 4);
    expect(split).toBeCloseTo(expected, 9);
  });
});
