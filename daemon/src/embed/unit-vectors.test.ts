import { describe, expect, it } from "vitest";
import { EmbeddingError } from "./embedder.js";
import { scaleToUnit, toUnitVectors } from "./unit-vectors.js";

const expected = { count: 2, dimensions: 2, source: "test model" };

function thrown(f: () => unknown): EmbeddingError {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(EmbeddingError);
    return error as EmbeddingError;
  }
  throw new Error("expected an EmbeddingError");
}

describe("toUnitVectors", () => {
  it("scales each vector to unit length in its own buffer", () => {
    const vectors = toUnitVectors(
      [
        [3, 4],
        [0, 2],
      ],
      expected,
    );
    expect(vectors).toEqual([Float32Array.from([0.6, 0.8]), Float32Array.from([0, 1])]);
    expect(vectors[0]?.buffer).not.toBe(vectors[1]?.buffer);
  });

  it("refuses a vector of another dimension, naming both sizes", () => {
    const error = thrown(() => toUnitVectors([[1, 2, 3], [1, 2]], expected));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/test model returned 3 dimensions, expected 2/);
  });

  it("refuses too few vectors, zero vectors and non-numbers", () => {
    expect(thrown(() => toUnitVectors([[1, 2]], expected)).message).toMatch(/1 vectors for 2 texts/);
    expect(thrown(() => toUnitVectors({}, expected)).message).toMatch(/no vector list/);
    expect(thrown(() => toUnitVectors([[0, 0], [1, 1]], expected)).message).toMatch(/zero or non-numeric vector for text 0/);
    expect(thrown(() => toUnitVectors([[1, "2"], [1, 1]], expected)).message).toMatch(/text 0/);
  });
});

describe("scaleToUnit", () => {
  it("reports a vector without direction instead of dividing by zero", () => {
    expect(scaleToUnit(new Float32Array(3))).toBe(false);
    const v = Float32Array.from([0, 0, 5]);
    expect(scaleToUnit(v)).toBe(true);
    expect(v).toEqual(Float32Array.from([0, 0, 1]));
  });
});
