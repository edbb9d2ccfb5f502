/**
 * Martin Porter's stemmer as SQLite's FTS5 "porter" tokenizer applies it (ext/fts5/fts5_tokenize.c),
 * quirks included, so that an index built in JS holds exactly the terms FTS5 holds:
 * - it works on the token's UTF-8 bytes: the length limits count bytes, and every byte that is
 *   not one of "aeiou" (or a "y" in vowel position) is a consonant, digits and the bytes of
 *   non-ASCII characters included;
 * - tokens under 3 or over 64 bytes pass through unchanged;
 * - a suffix never matches the whole token, and only the first rule of a step whose suffix
 *   matches is tried: if its condition fails, the step does nothing.
 */

/** Tokens shorter than this many bytes are not stemmed. */
const MIN_STEM_BYTES = 3;
/** Tokens longer than this many bytes are not stemmed. */
const MAX_STEM_BYTES = 64;

const A = 0x61, E = 0x65, I = 0x69, O = 0x6f, U = 0x75, Y = 0x79;
const L = 0x6c, S = 0x73, T = 0x74, W = 0x77, X = 0x78, Z = 0x7a;

/** The token being stemmed, as bytes; step 1b may append one byte. */
const buf = new Uint8Array(MAX_STEM_BYTES + 8);
/** Bytes of `buf` in use. */
let len = 0;
/** Lowest index written since the token was copied in: the bytes before it are the token's own. */
let firstWrite = 0;

function isVowel(c: number | undefined, yIsVowel: boolean): boolean {
  return c === A || c === E || c === I || c === O || c === U || (yIsVowel && c === Y);
}

/**
 * Scans buf[from, to) for a vowel followed by a consonant and returns the index just past that
 * consonant, or 0 if there is none. `prevIsConsonant` says how to read a "y" at `from`.
 */
function skipVowelConsonant(from: number, to: number, prevIsConsonant: boolean): number {
  let consonant = prevIsConsonant;
  let i = from;
  for (; i < to; i++) {
    consonant = !isVowel(buf[i], consonant);
    if (!consonant) break;
  }
  for (i++; i < to; i++) {
    consonant = !isVowel(buf[i], consonant);
    if (consonant) return i + 1;
  }
  return 0;
}

/** The stem buf[0, n) has measure m > 0. */
function measureAbove0(n: number): boolean {
  return skipVowelConsonant(0, n, false) !== 0;
}

/** The stem buf[0, n) has measure m > 1. */
function measureAbove1(n: number): boolean {
  const first = skipVowelConsonant(0, n, false);
  return first !== 0 && skipVowelConsonant(first, n, true) !== 0;
}

/** The stem buf[0, n) has measure m = 1. */
function measureIs1(n: number): boolean {
  const first = skipVowelConsonant(0, n, false);
  return first !== 0 && skipVowelConsonant(first, n, true) === 0;
}

/** The stem buf[0, n) contains a vowel; as in SQLite, any "y" but the first counts as one. */
function hasVowel(n: number): boolean {
  for (let i = 0; i < n; i++) {
    if (isVowel(buf[i], i > 0)) return true;
  }
  return false;
}

/** The stem buf[0, n) ends consonant-vowel-consonant, the last not w, x or y (Porter's *o). */
function endsCvc(n: number): boolean {
  const last = buf[n - 1];
  if (last === W || last === X || last === Y) return false;
  let mask = 0;
  let consonant = false;
  for (let i = 0; i < n; i++) {
    consonant = !isVowel(buf[i], consonant);
    mask = (mask << 1) | (consonant ? 1 : 0);
  }
  return (mask & 0b111) === 0b101;
}

/** Step 4's condition for "ion": m > 1 and the stem ends in "s" or "t". */
function measureAbove1EndsSOrT(n: number): boolean {
  const last = buf[n - 1];
  return (last === S || last === T) && measureAbove1(n);
}

/** The token in buf is longer than `suffix` and ends with it. */
function endsWith(suffix: string): boolean {
  const n = suffix.length;
  if (len <= n) return false;
  const at = len - n;
  for (let i = 0; i < n; i++) {
    if (buf[at + i] !== suffix.charCodeAt(i)) return false;
  }
  return true;
}

/** Replaces the last `suffixLength` bytes with `replacement`. */
function replaceSuffix(suffixLength: number, replacement: string): void {
  const at = len - suffixLength;
  for (let i = 0; i < replacement.length; i++) buf[at + i] = replacement.charCodeAt(i);
  len = at + replacement.length;
  if (replacement.length > 0 && at < firstWrite) firstWrite = at;
}

type Condition = (stemLength: number) => boolean;
type Rule = readonly [suffix: string, replacement: string, condition: Condition];

/** Rules of one step, grouped by the suffix's last letter, in the order the step tries them. */
type Step = ReadonlyArray<readonly Rule[] | undefined>;

function step(rules: readonly Rule[]): Step {
  const byLast: Rule[][] = [];
  for (const rule of rules) {
    const last = rule[0].charCodeAt(rule[0].length - 1);
    (byLast[last] ??= []).push(rule);
  }
  return byLast;
}

const STEP_2 = step([
  ["ational", "ate", measureAbove0],
  ["tional", "tion", measureAbove0],
  ["enci", "ence", measureAbove0],
  ["anci", "ance", measureAbove0],
  ["izer", "ize", measureAbove0],
  ["logi", "log", measureAbove0],
  ["bli", "ble", measureAbove0],
  ["alli", "al", measureAbove0],
  ["entli", "ent", measureAbove0],
  ["eli", "e", measureAbove0],
  ["ousli", "ous", measureAbove0],
  ["ization", "ize", measureAbove0],
  ["ation", "ate", measureAbove0],
  ["ator", "ate", measureAbove0],
  ["alism", "al", measureAbove0],
  ["iveness", "ive", measureAbove0],
  ["fulness", "ful", measureAbove0],
  ["ousness", "ous", measureAbove0],
  ["aliti", "al", measureAbove0],
  ["iviti", "ive", measureAbove0],
  ["biliti", "ble", measureAbove0],
]);

const STEP_3 = step([
  ["ical", "ic", measureAbove0],
  ["ness", "", measureAbove0],
  ["icate", "ic", measureAbove0],
  ["iciti", "ic", measureAbove0],
  ["ful", "", measureAbove0],
  ["ative", "", measureAbove0],
  ["alize", "al", measureAbove0],
]);

const STEP_4 = step([
  ["al", "", measureAbove1],
  ["ance", "", measureAbove1],
  ["ence", "", measureAbove1],
  ["er", "", measureAbove1],
  ["ic", "", measureAbove1],
  ["able", "", measureAbove1],
  ["ible", "", measureAbove1],
  ["ant", "", measureAbove1],
  ["ement", "", measureAbove1],
  ["ment", "", measureAbove1],
  ["ent", "", measureAbove1],
  ["ion", "", measureAbove1EndsSOrT],
  ["ou", "", measureAbove1],
  ["ism", "", measureAbove1],
  ["ate", "", measureAbove1],
  ["iti", "", measureAbove1],
  ["ous", "", measureAbove1],
  ["ive", "", measureAbove1],
  ["ize", "", measureAbove1],
]);

/** Applies the first rule whose suffix matches, if its condition holds; returns whether it did. */
function applyStep(rules: Step): boolean {
  const group = rules[buf[len - 1] ?? 0];
  if (group === undefined) return false;
  for (const [suffix, replacement, condition] of group) {
    if (!endsWith(suffix)) continue;
    if (!condition(len - suffix.length)) return false;
    replaceSuffix(suffix.length, replacement);
    return true;
  }
  return false;
}

/** Step 1a: plurals ("caresses" → "caress", "ponies" → "poni", "cats" → "cat"). */
function step1a(): void {
  if (buf[len - 1] !== S) return;
  if (buf[len - 2] === E) {
    const sses = len > 4 && buf[len - 4] === S && buf[len - 3] === S;
    const ies = len > 3 && buf[len - 3] === I;
    len -= sses || ies ? 2 : 1;
  } else if (buf[len - 2] !== S) {
    len -= 1;
  }
}

/** Step 1b: "-eed", "-ed", "-ing", then the clean-up after removing "-ed" or "-ing". */
function step1b(): void {
  if (endsWith("eed")) {
    if (measureAbove0(len - 3)) replaceSuffix(3, "ee");
    return;
  }
  let removed = false;
  if (endsWith("ed")) {
    removed = hasVowel(len - 2);
    if (removed) len -= 2;
  } else if (endsWith("ing")) {
    removed = hasVowel(len - 3);
    if (removed) len -= 3;
  }
  if (!removed) return;
  if (endsWith("at")) return replaceSuffix(2, "ate");
  if (endsWith("bl")) return replaceSuffix(2, "ble");
  if (endsWith("iz")) return replaceSuffix(2, "ize");
  const last = buf[len - 1];
  if (!isVowel(last, false) && last !== L && last !== S && last !== Z && last === buf[len - 2]) {
    len -= 1;
  } else if (measureIs1(len) && endsCvc(len)) {
    buf[len] = E;
    if (len < firstWrite) firstWrite = len;
    len += 1;
  }
}

/** Step 1c: a final "y" after a vowel becomes "i". */
function step1c(): void {
  if (buf[len - 1] === Y && hasVowel(len - 1)) {
    buf[len - 1] = I;
    if (len - 1 < firstWrite) firstWrite = len - 1;
  }
}

/** Step 5: a final "e" and a final double "l". */
function step5(): void {
  if (buf[len - 1] === E && (measureAbove1(len - 1) || (measureIs1(len - 1) && !endsCvc(len - 1)))) {
    len -= 1;
  }
  if (len > 1 && buf[len - 1] === L && buf[len - 2] === L && measureAbove1(len - 1)) {
    len -= 1;
  }
}

/** Runs every step on the token in buf[0, len). */
function stemBuffer(): void {
  step1a();
  step1b();
  step1c();
  applyStep(STEP_2);
  applyStep(STEP_3);
  applyStep(STEP_4);
  step5();
}

/**
 * The porter stem of a token that unicode61 has already folded, as FTS5 indexes it. A stem
 * of a non-ASCII token may end inside a UTF-8 sequence (SQLite cuts bytes); it is decoded with
 * U+FFFD for the broken character, as better-sqlite3 reads such a term back.
 */
export function stem(token: string): string {
  const n = token.length;
  let ascii = true;
  for (let i = 0; i < n; i++) {
    if (token.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (!ascii) return stemUtf8(token);
  if (n < MIN_STEM_BYTES || n > MAX_STEM_BYTES) return token;
  for (let i = 0; i < n; i++) buf[i] = token.charCodeAt(i);
  len = n;
  firstWrite = n;
  stemBuffer();
  if (firstWrite >= len) return token.slice(0, len);
  return token.slice(0, firstWrite) + String.fromCharCode(...buf.subarray(firstWrite, len));
}

function stemUtf8(token: string): string {
  const bytes = Buffer.from(token, "utf8");
  if (bytes.length < MIN_STEM_BYTES || bytes.length > MAX_STEM_BYTES) return token;
  buf.set(bytes);
  len = bytes.length;
  firstWrite = len;
  stemBuffer();
  if (firstWrite >= len && len === bytes.length) return token;
  return Buffer.from(buf.subarray(0, len)).toString("utf8");
}
