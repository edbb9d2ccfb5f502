import { redact } from "../redact/redact-secrets.js";

/** How much of a prompt the record keeps: enough to tell what it asked. */
export const PROMPT_EXCERPT_CHARS = 500;
/**
 * How much of a prompt is redacted: Suggest searches no more than this of it either. Redacting
 * the whole of a pasted 16 MiB log would cost the daemon a second for a line it never keeps.
 */
const REDACTED_CHARS = 2000;

/**
 * The start of a prompt as the record keeps it: redacted with the daemon's secret redaction
 * (on the text as sent, whose line breaks some detectors read), whitespace folded, cut to 500
 * characters. Both cuts fall before a word that would not fit whole, so no secret is kept in
 * part: the first before redaction (a key cut there is a stump the detectors may not know), the
 * second after it (a marker cut there would read as text).
 */
export function promptExcerpt(prompt: string): string {
  const redacted = redact(wordsWithin(prompt.trim(), REDACTED_CHARS));
  return wordsWithin(redacted.replace(/\s+/g, " "), PROMPT_EXCERPT_CHARS);
}

/** The text's start within `max` characters, ending at the last whitespace before a word that would not fit; "…" says something was left out. */
function wordsWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  while (end > 0 && !/\s/.test(text.charAt(end))) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}
