import { describe, expect, it } from "vitest";
import { mergeSentences } from "./sentence-merge.js";

describe("mergeSentences", () => {
  it("drops sentences already said, keeping first occurrences in order", () => {
    expect(mergeSentences(["Tests use vitest. Run them with npm test.", "run them with NPM test! Coverage is off."]))
      .toBe("Tests use vitest. Run them with npm test.\nCoverage is off.");
  });

  it("drops a text that adds nothing", () => {
    expect(mergeSentences(["Use pnpm.", "use pnpm"])).toBe("Use pnpm.");
  });

  it("keeps the line structure of each text", () => {
    expect(mergeSentences(["Steps:\n1. build\n2. test", "2. test\n3. release"]))
      .toBe("Steps:\n1. build\n2. test\n3. release");
  });

  it("ends a sentence after a number", () => {
    expect(mergeSentences(["Port 8080. Use TLS.", "use TLS"])).toBe("Port 8080. Use TLS.");
  });

  it("keeps list numbers with their item", () => {
    expect(mergeSentences(["1. build", "1. deploy"])).toBe("1. build\n1. deploy");
  });

  it("drops blank lines and surrounding whitespace", () => {
    expect(mergeSentences(["  A.  \n\n  B.  ", ""])).toBe("A.\nB.");
  });

  it("compares text without letters as written", () => {
    expect(mergeSentences(["}", "---", "}"])).toBe("}\n---");
  });

  it("returns an empty string for no texts", () => {
    expect(mergeSentences([])).toBe("");
  });
});
