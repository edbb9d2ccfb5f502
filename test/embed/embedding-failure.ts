import { expect } from "vitest";
import { EmbeddingError } from "../../daemon/src/embed/embedder.js";

/** Awaits a promise that must reject with an EmbeddingError, and returns the error. */
export async function embeddingFailure(promise: Promise<unknown>): Promise<EmbeddingError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EmbeddingError);
  return error as EmbeddingError;
}
