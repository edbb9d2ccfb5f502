import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./retry-delay.js";

describe("retryDelayMs", () => {
  it("doubles from one second per attempt", () => {
    expect([0, 1, 2, 3].map((a) => retryDelayMs(a, true))).toEqual([1000, 2000, 4000, 8000]);
  });

  it("caps at five minutes", () => {
    expect(retryDelayMs(30, true)).toBe(300_000);
  });

  it("waits at least as long as the server's Retry-After", () => {
    expect(retryDelayMs(0, true, 20_000)).toBe(20_000);
  });

  it("waits ten minutes after a permanent failure", () => {
    expect(retryDelayMs(0, false)).toBe(600_000);
  });
});
