/**
 * Builds safe FTS5 MATCH expressions from free text. Every term is quoted, so FTS5 syntax in
 * the input (`"`, `*`, `NEAR(`, `-`, `:`) is matched as text, never parsed. An identifier such
 * as `PAY-1423`, `src/auth/session.ts` or `make migrate-up` becomes a phrase of its parts,
 * which matches exactly that sequence of tokens in a memory.
 */

const STOPWORDS = new Set([
  "a", "an", "and", "are", "as", "at", "be", "by", "did", "do", "does", "for", "from", "had",
  "has", "have", "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or", "our",
  "should", "so", "that", "the", "their", "them", "there", "these", "this", "to", "was",
  "we", "were", "what", "when", "where", "which", "who", "why", "will", "with", "you", "your",
]);

/** The most terms a query contributes; more only slow the search without improving it. */
const MAX_TERMS = 32;

/** The indexed text columns; project_key is matched separately. */
const TEXT_COLUMNS = "{content problem solution concepts files tags}";

// Matches what FTS5's unicode61 tokenizer keeps as token characters: letters, digits and marks.
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** The quoted phrases of a query, or null when it holds nothing searchable. */
export function queryTerms(text: string): string[] | null {
  const phrases: string[] = [];
  const stopPhrases: string[] = [];
  for (const chunk of text.split(/\s+/)) {
    const parts = (chunk.match(TOKEN) ?? []).map((part) => part.toLowerCase());
    if (parts.length === 0) continue;
    const phrase = `"${parts.join(" ")}"`;
    const target = parts.length === 1 && STOPWORDS.has(parts[0] as string) ? stopPhrases : phrases;
    if (!target.includes(phrase)) target.push(phrase);
  }
  // A query made only of stopwords still searches for them rather than for nothing.
  const chosen = phrases.length > 0 ? phrases : stopPhrases;
  return chosen.length === 0 ? null : chosen.slice(0, MAX_TERMS);
}

/**
 * The single token that stands for a project in the index. It must equal the generated
 * column memories.project_key ('p' || lower(hex(project)) || '0'): hex keeps it one token,
 * and the trailing digit keeps the porter stemmer from touching it.
 */
export function projectKey(project: string): string {
  return `p${Buffer.from(project, "utf8").toString("hex")}0`;
}

/** A MATCH expression: the terms joined by the operator, within the given projects if any. */
export function matchExpression(terms: readonly string[], operator: "AND" | "OR", projects?: readonly string[]): string {
  const text = `${TEXT_COLUMNS} : (${terms.join(` ${operator} `)})`;
  if (projects === undefined) return text;
  return `${text} AND project_key : (${projects.map((p) => `"${projectKey(p)}"`).join(" OR ")})`;
}
