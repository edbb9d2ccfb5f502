/**
 * The catch-all for secrets without a known prefix or label: long random-looking tokens.
 *
 * The rule, in full. A token is a maximal run of `A-Z a-z 0-9 + / _ -`, plus any `=` padding
 * after it (text already redacted counts as a break). It is redacted when all of these hold:
 *  1. it has at least 32 characters, padding not counted;
 *  2. it mixes lower case, upper case and digits;
 *  3. its Shannon entropy is at least 3.5 bits per character;
 *  4. less than half of it is explained by structure: separators (`+ / _ - =`), segments
 *     between separators in one character class (`SNYK`, `2429795`, `feat`), words
 *     (`[a-z]{4,}`, `[A-Z][a-z]{3,}`), hex runs of 8 or more (hashes, UUID parts) and
 *     26-character Crockford runs (ULIDs);
 *  5. it is not a Subresource Integrity hash (`sha256-`, `sha384-`, `sha512-` prefix);
 *  6. it is not base64 of readable text: base64 that decodes to printable ASCII containing a
 *     space, and in which `containsSecret` finds nothing;
 *  7. it is not in the host or path of a URL (`scheme://...` up to `?` or `#`; the query
 *     string is still scanned). Document, video and commit ids in links look random too, and
 *     links are what users search for; secrets with a known format are still found there.
 *
 * Rule 2 keeps out every hex string (git SHAs, sha256 digests, UUIDs, memd's own hex bearer
 * token), ULIDs and SQLITE_BUSY-style constants, whatever their entropy: memd stores those on
 * purpose and users search for them. Hex secrets are therefore only caught by a label
 * (`api_key=`, `Authorization:`). Rule 4 keeps out paths and identifiers
 * (`src/components/UserProfile2Card`, `getUserProfileByIdAndOrganization2`), which score
 * 0.6-1.0, where random base62 or base64 of 32 characters scores 0.15 on median and falls
 * above 0.5 about once in a hundred (once in a thousand from 40 characters on). Rule 3 keeps
 * out repetitive padding (`Ab1Ab1Ab1...`), which rule 4 would not.
 */

export const MIN_TOKEN_LENGTH = 32;
export const MIN_ENTROPY_BITS = 3.5;
export const MAX_STRUCTURED_SHARE = 0.5;

/** Shannon entropy of the characters of `text`, in bits per character. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  const length = [...text].length;
  for (const count of counts.values()) {
    const p = count / length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The share of `token` that words, hex runs, ULIDs and separators account for, from 0 to 1. */
export function structuredShare(token: string): number {
  if (token.length === 0) return 0;
  const structure =
    /(?<![A-Za-z0-9])(?:[A-Z]+|[a-z]+|[0-9]+)(?![A-Za-z0-9])|[0-9a-f]{8,}|[0-9A-F]{8,}|[0-9A-HJKMNP-TV-Z]{26}|[a-z]{4,}|[A-Z][a-z]{3,}|[^A-Za-z0-9]+/g;
  let covered = 0;
  for (const match of token.matchAll(structure)) covered += match[0].length;
  return covered / token.length;
}

/** Applies rules 1-6 above to one token; rule 7 depends on where it stands, see `findHighEntropyTokens`. */
export function isHighEntropyToken(token: string, containsSecret: (text: string) => boolean = () => false): boolean {
  const body = token.replace(/=+$/, "");
  return (
    body.length >= MIN_TOKEN_LENGTH &&
    /[a-z]/.test(body) &&
    /[A-Z]/.test(body) &&
    /[0-9]/.test(body) &&
    shannonEntropy(body) >= MIN_ENTROPY_BITS &&
    structuredShare(token) < MAX_STRUCTURED_SHARE &&
    !/^sha(?:256|384|512)-/.test(token) &&
    !isEncodedText(body, containsSecret)
  );
}

function isEncodedText(body: string, containsSecret: (text: string) => boolean): boolean {
  // Standard or URL-safe alphabet, never both, and a length base64 can have.
  if (!/^(?:[A-Za-z0-9+/]+|[A-Za-z0-9_-]+)$/.test(body) || body.length % 4 === 1) return false;
  const decoded = Buffer.from(body, "base64");
  for (const byte of decoded) {
    if ((byte < 0x20 || byte > 0x7e) && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  }
  const text = decoded.toString("latin1");
  return text.includes(" ") && !containsSecret(text);
}

/**
 * Positions of high-entropy tokens in `text`. Characters inside `taken` spans (secrets already
 * found, earlier redaction markers) break tokens, so that a token beside a redacted secret is
 * judged on its own, exactly as it will be when the redacted text is scanned again.
 */
export function findHighEntropyTokens(
  text: string,
  taken: Uint8Array,
  containsSecret?: (text: string) => boolean,
): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  const urls = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s?#"'`<>]*/g;
  let url = urls.exec(text);
  const token = /[A-Za-z0-9+/_-]+=*/g;
  for (const match of text.matchAll(token)) {
    let start = match.index;
    const stop = start + match[0].length;
    // Tokens and URLs both come in text order, so one pass over each finds the URL around a token.
    while (url !== null && url.index + url[0].length <= start) url = urls.exec(text);
    if (url !== null && url.index <= start) continue;
    // Split the run at taken characters and judge each piece.
    for (let i = start; i <= stop; i += 1) {
      if (i < stop && taken[i] === 0) continue;
      if (i > start && isHighEntropyToken(text.slice(start, i), containsSecret)) found.push(trimSeparators(text, start, i));
      start = i + 1;
    }
  }
  return found;
}

// A separator at either end joins the token to its neighbour (`name-<token>`, `<token>/`); it is
// not part of the secret. Padded tokens are base64 whole and are kept whole.
function trimSeparators(text: string, start: number, end: number): { start: number; end: number } {
  if (text[end - 1] === "=") return { start, end };
  let from = start;
  let to = end;
  while (from < to && /[+/_-]/.test(text[from] as string)) from += 1;
  while (to > from && /[+/_-]/.test(text[to - 1] as string)) to -= 1;
  return { start: from, end: to };
}
