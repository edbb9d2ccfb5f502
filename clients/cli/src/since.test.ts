import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { parseSince } from "./since.js";

const NOW = Date.UTC(2026, 11, 2, 12);

describe("memctl's --since", () => {
  it("takes an age counted back from now", () => {
    expect(parseSince("90m", NOW)).toBe(NOW - 90 * 60_000);
    expect(parseSince("12h", NOW)).toBe(NOW - 12 * 3_600_000);
    expect(parseSince("7d", NOW)).toBe(Date.UTC(2026, 10, 25, 12));
    expect(parseSince("2w", NOW)).toBe(Date.UTC(2026, 10, 18, 12));
  });

  it("takes a date (UTC midnight) or a time", () => {
    expect(parseSince("2026-12-01", NOW)).toBe(Date.UTC(2026, 11, 1));
    expect(parseSince("2026-12-01T09:30:00Z", NOW)).toBe(Date.UTC(2026, 11, 1, 9, 30));
  });

  it.each(["yesterday", "7", "3y", "12/01/2026", ""])("refuses %j as a usage error that says what it takes", (value) => {
    expect(() => parseSince(value, NOW)).toThrow(InvalidArgumentError);
    expect(() => parseSince(value, NOW)).toThrow(/an age such as 90m, 12h, 7d or 2w, or a date or time/);
  });
});
