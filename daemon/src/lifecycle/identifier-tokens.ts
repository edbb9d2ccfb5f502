// Words end at whitespace, brackets, quotes and list punctuation; backticks too, so `pnpm test` yields pnpm.
const WORD = /[^\s,;()[\]{}<>"'`]+/g;
// Short dotted abbreviations (e.g, i.e, a.m) are prose, not identifiers.
const ABBREVIATION = /^(?:[a-z]{1,2}\.)+[a-z]{1,2}$/i;
// Code a text marks as such: a `code span`, a shell line (`$ make lint`), and the command of a
// failure trace's first line (`Command failed: ls /tmp/x`, as capture/failure-trace.ts writes it).
const CODE = /`([^`\n]+)`|^\s*(?:\$|Command failed:)\s+(.+)$/gm;

/** The words of a text, split where identifierTokens splits them, with sentence punctuation trimmed from each end. */
export function textWords(text: string): string[] {
  const out: string[] = [];
  for (const [raw] of text.matchAll(WORD)) {
    const word = raw.replace(/^[.:!?*]+/, "").replace(/[.:!?*]+$/, "");
    if (word !== "") out.push(word);
  }
  return out;
}

/**
 * The identifier-shaped words of a text: anything with a digit (PAY-1423, 5433, v1.2), a path or
 * underscore (src/auth/tokens.ts, token_hash), a dot inside it (pnpm-lock.yaml), camelCase
 * (verifyAccessToken), an all-caps name of three or more (ECONNRESET, JWT) or a command-line
 * flag (--dry-run). A summary that drops one of these has lost something recall matches on.
 */
export function identifierTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of textWords(text)) {
    if (ABBREVIATION.test(word)) continue;
    if (/\d/.test(word) || /[_/\\]/.test(word) || /\w\.\w/.test(word) || /[a-z][A-Z]/.test(word) || /^[A-Z][A-Z0-9]{2,}$/.test(word) || /^--?[a-z]/.test(word)) {
      out.add(word);
    }
  }
  return out;
}

/**
 * The words a text marks as code whatever their shape: those of its code spans, shell lines and
 * failed commands. `ls` and `npm test` look like prose, but name what was run.
 */
export function codeWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const match of text.matchAll(CODE)) for (const word of textWords(match[1] ?? match[2] ?? "")) out.add(word);
  return out;
}

/** The identifiers of `sources` that `text` does not contain, in first-seen order. */
export function missingIdentifiers(sources: readonly string[], text: string): string[] {
  const missing = new Set<string>();
  for (const source of sources) {
    for (const token of identifierTokens(source)) if (!text.includes(token)) missing.add(token);
  }
  return [...missing];
}
