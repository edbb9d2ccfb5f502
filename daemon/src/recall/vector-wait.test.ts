import { describe, expect, it } from "vitest";
import { AFTER_VECTORS_MS, DEFAULT_VECTOR_WAIT_MS, vectorWaitMs } from "./vector-wait.js";

describe("vectorWaitMs", () => {
  it("waits the default when the call has no deadline", () => {
    expect(vectorWaitMs(undefined)).toBe(DEFAULT_VECTOR_WAIT_MS);
  });

  it("leaves the search its time before a nearer deadline", () => {
    expect(vectorWaitMs(250)).toBe(250 - AFTER_VECTORS_MS);
  });

  it("never waits longer than the default, however far the deadline", () => {
    expect(vectorWaitMs(60_000)).toBe(DEFAULT_VECTOR_WAIT_MS);
  });

  it("does not wait at all when the deadline leaves no time for it", () => {
    expect(vectorWaitMs(10)).toBe(0);
  });
});
