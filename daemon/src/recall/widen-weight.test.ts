import { describe, expect, it } from "vitest";
import { widenWeight } from "./hybrid-search.js";

describe("widenWeight", () => {
  it("scales other projects by how their best keyword match compares with the local one", () => {
    expect(widenWeight(10, 5, 1.25)).toBe(0.5);
    expect(widenWeight(10, 10, 1.25)).toBe(1);
  });

  it("lets a much stronger foreign match count more, up to the cap", () => {
    expect(widenWeight(10, 12, 1.25)).toBeCloseTo(1.2);
    expect(widenWeight(10, 40, 1.25)).toBe(1.25);
  });

  it("widens fully when the current project matched nothing", () => {
    expect(widenWeight(0, 3, 1.25)).toBe(1.25);
  });

  it("gives nothing to other projects that matched nothing", () => {
    expect(widenWeight(10, 0, 1.25)).toBe(0);
  });
});
