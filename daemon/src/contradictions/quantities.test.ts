import { describe, expect, it } from "vitest";
import { findQuantities, sameQuantity } from "./quantities.js";

const values = (text: string) => findQuantities(text).map((q) => [q.family, q.value]);

describe("findQuantities", () => {
  it("reads durations, sizes and percentages in base units", () => {
    expect(values("timeout is 10s, uploads 25 MB, 20% sampled")).toEqual([["duration", 10_000], ["size", 25e6], ["percent", 20]]);
    expect(values("an hour each day")).toEqual([["duration", 3_600_000]]);
  });

  it("reads number words and grouped digits as counts", () => {
    expect(values("two cups and 20,000 miles")).toEqual([["count", 2], ["count", 20_000]]);
  });

  it("does not read 'and' as a number of days", () => {
    expect(values("a darker roast and one cup")).toEqual([["count", 1]]);
  });

  it("leaves numbers inside identifiers, versions of tickets and paths alone", () => {
    expect(values("ubuntu-22.04 SHA-256 ACME-123 /v1/orders products_v7 5K")).toEqual([]);
  });

  it("reads a time of day and a run's minutes and seconds", () => {
    expect(values("at 06:00 UTC")).toEqual([["clock", 360]]);
    expect(values("a time of 27:12")).toEqual([["duration", 1_632_000]]);
  });

  it("reads a port after localhost", () => {
    expect(values("http://localhost:3000")).toEqual([["port", 3000]]);
  });
});

describe("sameQuantity", () => {
  it("takes a version to cover its own patch releases", () => {
    const [a] = findQuantities("Node 20.x");
    const [b] = findQuantities("Node 20.11.1");
    expect(a && b && sameQuantity(a, b)).toBe(true);
  });
});
