import { normalizeText } from "./content-hash.js";

// A sentence ends at . ! or ? followed by whitespace; a line break also ends one.
const SENTENCE_END = /(?<=[.!?])\s+/;
// A list marker such as "1." or "b." is not a sentence of its own.
const LIST_MARKER = /^(\d+|[a-z])\.$/i;

/**
 * Joins texts, dropping every sentence already said (compared after normalizeText, so case,
 * spacing and punctuation don't matter) and keeping first occurrences in order. Each text's
 * lines stay lines; texts are separated by a line break; lines left empty are dropped.
 */
export function mergeSentences(texts: readonly string[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const text of texts) {
    for (const line of text.split(/\r?\n/)) {
      const kept = splitSentences(line).filter((sentence) => {
        // Text without letters or digits (a rule "---", a lone "}") is compared as written.
        const key = normalizeText(sentence) || sentence;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (kept.length > 0) lines.push(kept.join(" "));
    }
  }
  return lines.join("\n");
}

function splitSentences(line: string): string[] {
  const sentences: string[] = [];
  let marker = "";
  for (const piece of line.trim().split(SENTENCE_END)) {
    if (piece === "") continue;
    if (LIST_MARKER.test(piece)) {
      marker += `${piece} `;
      continue;
    }
    sentences.push(marker + piece);
    marker = "";
  }
  if (marker !== "") sentences.push(marker.trimEnd());
  return sentences;
}
