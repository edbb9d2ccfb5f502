import { createHash } from "node:crypto";

// Apostrophes vanish rather than split words, so "don't", "don’t" and "dont" agree.
const APOSTROPHES = /['\u2018\u2019\u02bc]/g;
// Everything that is not a letter, combining mark or digit separates words.
const SEPARATORS = /[^\p{L}\p{M}\p{N}]+/gu;

/**
 * Text reduced to what it says: Unicode-normalized (NFKC), lower case, punctuation and
 * whitespace collapsed to single spaces. Changing this changes every stored hash.
 */
export function normalizeText(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(APOSTROPHES, "").replace(SEPARATORS, " ").trim();
}

/** SHA-256 (hex) of the normalized content: equal for texts that differ only in case, spacing or punctuation. */
export function normalizedContentHash(content: string): string {
  return createHash("sha256").update(normalizeText(content), "utf8").digest("hex");
}
