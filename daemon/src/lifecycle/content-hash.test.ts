import { describe, expect, it } from "vitest";
import { normalizeText, normalizedContentHash } from "./content-hash.js";

describe("normalizedContentHash", () => {
  it("ignores case, whitespace and punctuation", () => {
    const a = normalizedContentHash("Use pnpm, not npm.");
    expect(normalizedContentHash("  use PNPM not npm ")).toBe(a);
    expect(normalizedContentHash("use\tpnpm;\nnot   npm!!")).toBe(a);
  });

  it("treats typographic and plain apostrophes alike", () => {
    expect(normalizedContentHash("Don’t force-push main")).toBe(normalizedContentHash("dont force push main"));
  });

  it("treats compatibility forms of the same characters alike", () => {
    expect(normalizedContentHash("ｕｓｅ ＴＡＢＳ")).toBe(normalizedContentHash("use tabs"));
  });

  it("tells different words apart", () => {
    expect(normalizedContentHash("use tabs")).not.toBe(normalizedContentHash("use spaces"));
    expect(normalizedContentHash("port 5432")).not.toBe(normalizedContentHash("port 5433"));
  });

  it("keeps word boundaries", () => {
    expect(normalizedContentHash("foo bar")).not.toBe(normalizedContentHash("foobar"));
  });

  it("is a stable hex SHA-256", () => {
    // sha256("hello world"): the hash must not change between releases, or stored hashes go stale.
    expect(normalizedContentHash("Hello, World!")).toBe(
      "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",
    );
  });
});

describe("normalizeText", () => {
  it("keeps letters of any script and their combining marks", () => {
    expect(normalizeText("Größe — नमस्ते!")).toBe("größe नमस्ते");
  });
});
