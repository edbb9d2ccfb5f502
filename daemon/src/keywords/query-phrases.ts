import type { QueryPhrase } from "./keyword-index.js";
import { tokenize } from "./tokenize.js";

/**
 * Turns free text into the phrases a keyword search looks for: one per whitespace-separated
 * chunk, so an identifier such as `PAY-1423`, `src/auth/session.ts` or `make migrate-up`
 * matches exactly that sequence of tokens in a memory. Stopwords alone are dropped unless the
 * query has nothing else.
 */

const STOPWORDS = new Set([
  "a", "an", "and", "are", "as", "at", "be", "by", "did", "do", "does", "for", "from", "had",
  "has", "have", "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or", "our",
  "should", "so", "that", "the", "their", "them", "there", "these", "this", "to", "was",
  "we", "were", "what", "when", "where", "which", "who", "why", "will", "with", "you", "your",
]);

/** The most phrases a query contributes; more only slow the search without improving it. */
const MAX_PHRASES = 32;

// Matches what FTS5's unicode61 tokenizer keeps as token characters: letters, digits and marks.
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** Each chunk's lower-cased parts, deduplicated, or null when the text holds nothing searchable. */
export function queryChunks(text: string): string[][] | null {
  const chunks: string[][] = [];
  const stopChunks: string[][] = [];
  const seen = new Set<string>();
  for (const chunk of text.split(/\s+/)) {
    const parts = (chunk.match(TOKEN) ?? []).map((part) => part.toLowerCase());
    const key = parts.join(" ");
    if (parts.length === 0 || seen.has(key)) continue;
    seen.add(key);
    (parts.length === 1 && STOPWORDS.has(parts[0] as string) ? stopChunks : chunks).push(parts);
  }
  // A query made only of stopwords still searches for them rather than for nothing.
  const chosen = chunks.length > 0 ? chunks : stopChunks;
  return chosen.length === 0 ? null : chosen.slice(0, MAX_PHRASES);
}

/** The query's phrases as the index's tokens (stemmed), or null when it holds nothing searchable. */
export function queryPhrases(text: string): QueryPhrase[] | null {
  return queryChunks(text)?.map((parts) => tokenize(parts.join(" "))) ?? null;
}
