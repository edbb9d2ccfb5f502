/**
 * The words that say what a text is about, for comparing a memory with an installed skill:
 * lower-cased, accents removed, function words and instruction filler ("always", "should")
 * dropped, and each word cut to a crude stem so that "migrations", "migrating" and
 * "migrate" meet. Precision is not the point; the same normalisation on both sides is.
 */

const STOPWORDS = new Set([
  "a", "about", "after", "all", "also", "always", "am", "an", "and", "any", "are", "as", "at", "be", "because",
  "been", "before", "being", "both", "but", "by", "can", "could", "did", "do", "does", "done", "each", "either",
  "else", "etc", "ever", "every", "for", "from", "get", "gets", "had", "has", "have", "he", "her", "here", "his",
  "how", "i", "if", "in", "into", "is", "it", "its", "just", "let", "like", "may", "me", "might", "more",
  "most", "must", "my", "need", "needs", "never", "no", "not", "now", "of", "on", "once", "one", "only", "or",
  "other", "our", "out", "over", "please", "prefer", "preferred", "prefers", "same", "she", "should", "so", "some", "such", "than", "that", "the",
  "their", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too", "up", "us", "use",
  "used", "uses", "using", "very", "via", "want", "wants", "was", "we", "were", "what", "when", "where", "which",
  "while", "who", "why", "will", "with", "without", "would", "you", "your",
]);

/** Words of a text in order: lower case, accents removed, stopwords kept (callers decide). */
export function words(text: string): string[] {
  const plain = text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  return plain.match(/[a-z0-9]+/g) ?? [];
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/**
 * A light suffix stripper (plural, -ing, -ed, -ly, final e) that keeps at least three letters.
 * Not Porter: it only has to map a word and its common inflections to the same key.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /^\d+$/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  for (const suffix of ["ing", "ed", "ly"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      // "running" -> "runn" -> "run"
      if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** The distinct stems of a text's meaningful words (stopwords and one-letter words dropped). */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of words(text)) {
    if (word.length < 2 || isStopword(word)) continue;
    out.add(stem(word));
  }
  return out;
}
