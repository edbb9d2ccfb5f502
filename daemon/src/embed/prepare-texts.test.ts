import { describe, expect, it } from "vitest";
import { EmbeddingError } from "./embedder.js";
import { chunksOf, clipText, prepareTexts } from "./prepare-texts.js";

describe("clipText", () => {
  it("keeps texts within the limit as they are and cuts longer ones to it", () => {
    expect(clipText("short", 10)).toBe("short");
    expect(clipText("0123456789abc", 10)).toBe("0123456789");
  });

  it("never leaves half of a surrogate pair at the end", () => {
    const text = "abc😀def"; // the emoji is two UTF-16 code units, at 3 and 4
    expect(clipText(text, 4)).toBe("abc");
    expect(clipText(text, 5)).toBe("abc😀");
  });
});

describe("prepareTexts", () => {
  it("refuses a blank text as a non-retryable error naming its position", () => {
    const error = (() => {
      try {
        prepareTexts(["ok", "\n\t "], 100);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).retryable).toBe(false);
    expect((error as EmbeddingError).message).toMatch(/text 1/);
  });

  it("clips each text", () => {
    expect(prepareTexts(["abcdef", "xy"], 3)).toEqual(["abc", "xy"]);
  });
});

describe("chunksOf", () => {
  it("splits in order with a shorter last group", () => {
    expect(chunksOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunksOf([], 2)).toEqual([]);
  });
});
