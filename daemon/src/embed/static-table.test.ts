import { describe, expect, it } from "vitest";
import { decodeStaticTable, distillTable, encodeStaticTable, SIF_COEFFICIENT, type StaticTable, type Vocabulary } from "./static-table.js";

const VOCABULARY: Vocabulary = [
  ["<unk>", 0], ["<s>", 0], ["</s>", 0], ["x1", 0], ["x2", 0], ["x3", 0],
  ["▁the", Math.log(0.05)], ["▁kubernetes", Math.log(1e-6)], ["▁pod", Math.log(1e-5)], ["▁deploy", Math.log(1e-5)],
];
const DIMENSIONS = 4;
const sif = (p: number) => SIF_COEFFICIENT / (SIF_COEFFICIENT + p);

/** The teacher's vector of each piece alone: "the" along the first axis, the rare pieces elsewhere. */
function pieceVectors(): Float32Array {
  const rows = [[0, 0, 0, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 0, 0, 0], [0, 2, 0, 0], [0, 2, 0, 0], [0, 0, 3, 1]];
  return Float32Array.from(rows.flat());
}

function row(table: StaticTable, id: number): number[] {
  return [...table.values.subarray(id * DIMENSIONS, (id + 1) * DIMENSIONS)].map((v) => v * (table.scales[id] as number));
}

describe("distillTable", () => {
  it("weighs a piece by a / (a + its probability): the rarer of two pieces alike counts more", () => {
    const table = distillTable(pieceVectors(), VOCABULARY, DIMENSIONS);
    const norm = (id: number) => Math.hypot(...row(table, id));
    expect(norm(7) / norm(8)).toBeCloseTo(sif(1e-6) / sif(1e-5), 2);
  });

  it("takes out the direction of the expected text, so that texts at random are not alike", () => {
    const table = distillTable(pieceVectors(), VOCABULARY, DIMENSIONS);
    // The rows averaged by how often each piece occurs: what every text shares is gone.
    const expected = [0, 0, 0, 0];
    for (let id = 6; id < VOCABULARY.length; id++) row(table, id).forEach((x, d) => (expected[d] = (expected[d] as number) + Math.exp((VOCABULARY[id] as [string, number])[1]) * x));
    const scale = Math.exp((VOCABULARY[6] as [string, number])[1]) * Math.hypot(...row(table, 9));
    expect(Math.hypot(...expected) / scale).toBeLessThan(0.02);
    // A rare piece that points elsewhere keeps most of its own direction.
    expect(Math.hypot(...row(table, 7))).toBeGreaterThan(0.9 * 2 * sif(1e-6));
  });

  it("gives <s>, </s> and the unused ids no row, and the unknown piece a tiny one", () => {
    const table = distillTable(pieceVectors(), VOCABULARY, DIMENSIONS);
    expect([...table.scales.subarray(1, 6)]).toEqual([0, 0, 0, 0, 0]);
    expect(table.scales[0]).toBeGreaterThan(0);
    expect(Math.hypot(...row(table, 0)) / Math.hypot(...row(table, 7))).toBeLessThan(1e-3);
  });

  it("refuses vectors that do not fit the vocabulary", () => {
    expect(() => distillTable(new Float32Array(3), VOCABULARY, DIMENSIONS)).toThrow("expected 10 × 4 values, got 3");
  });
});

describe("the table file", () => {
  it("reads back exactly what was written", () => {
    const table = distillTable(pieceVectors(), VOCABULARY, DIMENSIONS);
    expect(decodeStaticTable(encodeStaticTable(table))).toEqual(table);
  });

  it("refuses bytes that are not a table, or a truncated one, saying which", () => {
    expect(() => decodeStaticTable(new Uint8Array(64))).toThrow("not a static embedding table");
    const bytes = encodeStaticTable(distillTable(pieceVectors(), VOCABULARY, DIMENSIONS));
    expect(() => decodeStaticTable(bytes.subarray(0, bytes.length - 1))).toThrow(/a table of 10 × 4 takes \d+ bytes; this one has \d+/);
  });
});
