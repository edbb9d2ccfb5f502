import { describe, expect, it } from "vitest";
import { failureDetail, retryAfterMs, unreachable } from "./http-failure.js";

const NOW = Date.parse("2025-03-01T12:00:00Z");

describe("retryAfterMs", () => {
  it("reads Retry-After in seconds", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "20" }), NOW)).toBe(20_000);
    expect(retryAfterMs(new Headers({ "retry-after": "0.5" }), NOW)).toBe(500);
  });

  it("reads Retry-After as an HTTP date", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "Sat, 01 Mar 2025 12:00:30 GMT" }), NOW)).toBe(30_000);
    expect(retryAfterMs(new Headers({ "retry-after": "Sat, 01 Mar 2025 11:00:00 GMT" }), NOW)).toBe(0);
  });

  it("prefers OpenAI's retry-after-ms", () => {
    expect(retryAfterMs(new Headers({ "retry-after-ms": "1250", "retry-after": "2" }), NOW)).toBe(1250);
  });

  it("ignores absent or unreadable values and caps absurd ones at an hour", () => {
    expect(retryAfterMs(new Headers(), NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers({ "retry-after": "999999" }), NOW)).toBe(3_600_000);
  });
});

describe("unreachable", () => {
  it("names a refused connection and a timeout, both retryable", () => {
    const refused = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
    expect(unreachable(refused, "ollama at X", 500)).toMatchObject({ retryable: true, message: "ollama at X is not reachable (connection refused)" });
    const timeout = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    expect(unreachable(timeout, "ollama at X", 500)).toMatchObject({ retryable: true, message: "ollama at X did not answer within 500 ms" });
    expect(failureDetail(new TypeError("fetch failed", { cause: { code: "ENOTFOUND" } }), 500)).toBe("ENOTFOUND");
  });
});
