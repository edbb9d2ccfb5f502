import { describe, expect, it } from "vitest";
import { backoffMs } from "./backoff.js";

describe("backoffMs", () => {
  it("waits the first delay after one failure, then doubles up to the cap", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, 500, 5000))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
  });

  it("treats no failure yet as the first", () => {
    expect(backoffMs(0, 500, 5000)).toBe(500);
  });
});
