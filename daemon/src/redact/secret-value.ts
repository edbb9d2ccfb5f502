/**
 * Where a secret value that follows a label or an option starts and ends: a quoted value up to
 * its closing quote (also JSON-escaped, `\"...\"`), else a bare run. Shared by the detectors that
 * know where a value begins but not where it stops (`password=...`, `mysql -p...`).
 */

export interface SecretValue {
  start: number;
  end: number;
  quoted: boolean;
}

/**
 * What ends a bare value. In an assignment it ends at a separator of the surrounding syntax
 * (`;` in connection strings, `&` in query strings, `,` in flow maps and key=value lists); on a
 * command line a comma belongs to the word (`lftp -u maya,pw`) and `|` ends the command.
 * Both end at whitespace, a quote or an escaped line break of JSON-encoded text.
 */
export type BareValueSyntax = "assignment" | "command-line";

// {0,1024}: MAX_VALUE.
const BARE: Record<BareValueSyntax, RegExp> = {
  assignment: /(?:[^\s"'`;&,\\]|\\(?!["'nrt])){0,1024}/y,
  "command-line": /(?:[^\s"'`;&|\\]|\\(?!["'nrt])){0,1024}/y,
};

// Long enough for any real credential; a cap keeps one unterminated quote from eating a file.
const MAX_VALUE = 1024;

/** The value that starts at `from`, or undefined when there is none (an empty quote, nothing). */
export function readSecretValue(text: string, from: number, syntax: BareValueSyntax): SecretValue | undefined {
  const escapedQuote = text[from] === "\\" && (text[from + 1] === '"' || text[from + 1] === "'");
  const quote = escapedQuote ? text[from + 1] : text[from];
  if (quote === '"' || quote === "'" || quote === "`") {
    const start = from + (escapedQuote ? 2 : 1);
    const close = findClosingQuote(text, start, quote, escapedQuote);
    if (close !== undefined) return close > start ? { start, end: close, quoted: true } : undefined;
    return readBare(text, start, syntax);
  }
  return readBare(text, from, syntax);
}

function findClosingQuote(text: string, start: number, quote: string, escaped: boolean): number | undefined {
  const limit = Math.min(text.length, start + MAX_VALUE);
  for (let i = start; i < limit; i += 1) {
    const c = text[i];
    if (c === "\n" || c === "\r") return undefined;
    if (c === "\\") {
      if (escaped && text[i + 1] === quote) return i;
      i += 1;
      continue;
    }
    if (c === quote && !escaped) return i;
  }
  return undefined;
}

// Sentence punctuation after a bare value is not part of it.
function readBare(text: string, start: number, syntax: BareValueSyntax): SecretValue | undefined {
  const bare = BARE[syntax];
  bare.lastIndex = start;
  let end = start + (bare.exec(text)?.[0].length ?? 0);
  while (end > start && /[.:!?)\]}]/.test(text[end - 1] as string)) end -= 1;
  return end > start ? { start, end, quoted: false } : undefined;
}
