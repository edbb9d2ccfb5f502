import { EmbeddingError } from "./embedder.js";

/** Cuts a text to at most `maxChars` UTF-16 code units, never between the halves of a surrogate pair. */
export function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const last = text.charCodeAt(maxChars - 1);
  const splitsPair = last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, splitsPair ? maxChars - 1 : maxChars);
}

/**
 * Clips every text to the provider's limit. A blank text is refused rather than embedded: its
 * vector would mean nothing, and some providers answer it with an error or with nothing at all.
 */
export function prepareTexts(texts: readonly string[], maxChars: number): string[] {
  return texts.map((text, i) => {
    if (text.trim() === "") throw new EmbeddingError(`text ${i} of the batch is blank: there is nothing to embed`, false);
    return clipText(text, maxChars);
  });
}

/** Splits items into consecutive groups of at most `size`, in order. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
