import { describe, expect, it } from "vitest";
import { compactDiff } from "./text-diff.js";

describe("compact diff", () => {
  it("shows added and removed lines with one line of context and elides the rest", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\n";
    const after = "a\nB\nc\nd\ne\nf\ng\nh\n";
    expect(compactDiff(before, after)).toEqual(["  a", "- b", "+ B", "  c", "  ...", "  g", "+ h"]);
  });

  it("shows a new file as all added and a removed one as all removed", () => {
    expect(compactDiff(null, "x\ny\n")).toEqual(["+ x", "+ y"]);
    expect(compactDiff("x\n", null)).toEqual(["- x"]);
  });

  it("is empty when nothing changed and cuts very long lines", () => {
    expect(compactDiff("same\n", "same\n")).toEqual([]);
    const long = compactDiff(null, `${"x".repeat(500)}\n`)[0] ?? "";
    expect(long.length).toBeLessThan(200);
    expect(long.endsWith("…")).toBe(true);
  });
});
