import { describe, expect, it } from "vitest";
import { appendBlock, joinLines, removeBlock, splitLines } from "./text-lines.js";

function roundTrip(text: string, edit: (lines: string[]) => void): string {
  const split = splitLines(text);
  edit(split.lines);
  return joinLines(split);
}

describe("text lines", () => {
  it("splits on the file's own line ending and joins back byte for byte", () => {
    expect(splitLines("a\r\nb\r\n")).toEqual({ lines: ["a", "b"], eol: "\r\n" });
    expect(joinLines(splitLines("a\nb"))).toBe("a\nb\n");
    expect(joinLines(splitLines(""))).toBe("");
  });

  it("appends a block after one blank line, and removing it gives the text back", () => {
    const added = roundTrip("intro\n", (lines) => appendBlock(lines, ["x", "y"]));
    expect(added).toBe("intro\n\nx\ny\n");
    expect(roundTrip(added, (lines) => removeBlock(lines, 2, 3))).toBe("intro\n");
    expect(roundTrip("", (lines) => appendBlock(lines, ["x"]))).toBe("x\n");
  });

  it("removes a block between paragraphs with one of the two blank lines, and one at the top with the blank after it", () => {
    expect(roundTrip("a\n\nx\n\nb\n", (lines) => removeBlock(lines, 2, 2))).toBe("a\n\nb\n");
    expect(roundTrip("x\n\nb\n", (lines) => removeBlock(lines, 0, 0))).toBe("b\n");
  });
});
