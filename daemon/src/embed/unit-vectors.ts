import { EmbeddingError } from "./embedder.js";

/** Scales a vector to unit length in place; returns false when it has no direction (all zeros, or not finite). */
export function scaleToUnit(vector: Float32Array): boolean {
  let sumOfSquares = 0;
  for (const x of vector) sumOfSquares += x * x;
  const norm = Math.sqrt(sumOfSquares);
  if (!(norm > 0) || !Number.isFinite(norm)) return false;
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  return true;
}

export interface ExpectedVectors {
  count: number;
  dimensions: number;
  /** Who produced them, for messages: "ollama model nomic-embed-text at http://127.0.0.1:11434". */
  source: string;
}

/**
 * Checks what a provider returned (one vector per text, each of the space's dimension, finite
 * numbers) and copies each into its own unit-length Float32Array. Anything else is a
 * non-retryable EmbeddingError: a vector of the wrong shape must never reach the index.
 */
export function toUnitVectors(raw: unknown, expected: ExpectedVectors): Float32Array[] {
  if (!Array.isArray(raw) || raw.length !== expected.count) {
    const got = Array.isArray(raw) ? `${raw.length} vectors` : "no vector list";
    throw new EmbeddingError(`${expected.source} returned ${got} for ${expected.count} texts`, false);
  }
  return raw.map((values: unknown, i) => {
    if (!Array.isArray(values) || values.length !== expected.dimensions) {
      const got = Array.isArray(values) ? `${values.length}` : "no";
      throw new EmbeddingError(
        `${expected.source} returned ${got} dimensions, expected ${expected.dimensions}: the model is not the one this embedding space was made with`,
        false,
      );
    }
    const vector = new Float32Array(expected.dimensions);
    for (let d = 0; d < values.length; d++) {
      const x: unknown = values[d];
      vector[d] = typeof x === "number" ? x : Number.NaN;
    }
    if (!scaleToUnit(vector)) throw new EmbeddingError(`${expected.source} returned a zero or non-numeric vector for text ${i}`, false);
    return vector;
  });
}
