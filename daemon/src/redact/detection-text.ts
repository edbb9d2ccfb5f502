/**
 * The text the detectors read: what a person sees, not the code points that draw it. A secret
 * can be typed or pasted in a form that looks the same and matches nothing: a zero-width space
 * or a soft hyphen inside `AKIA…`, fullwidth `ｐａｓｓｗｏｒｄ＝…` from a CJK input method,
 * mathematical bold letters, Cyrillic `а` for Latin `a`. The detectors run on a folded copy,
 * and each span they find is mapped back to the input, so that only the secret changes: the
 * text a person wrote stays exactly as written everywhere else.
 *
 * The fold, per code point:
 * - default-ignorable code points (zero-width space and joiners, soft hyphen, word joiner,
 *   bidi controls, variation selectors, BOM, tag characters, Hangul fillers) and combining
 *   marks are dropped: they draw nothing of their own;
 * - the rest is NFKC (fullwidth and mathematical letters, ligatures, circled digits and the
 *   many spaces become their plain forms);
 * - Cyrillic and Greek letters drawn like Latin ones, and small capitals, become those Latin
 *   letters; dashes and minus signs become hyphens.
 */

// Default_Ignorable_Code_Point covers what draws nothing (U+200B, U+00AD, U+2060, U+FEFF,
// U+180E, U+3164, the tag block); Mn and Me are marks drawn on the letter before them.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]/u;

// Letters of other scripts that fonts draw exactly like Latin ones (Unicode's confusables for
// the letters secrets and their labels are made of). Only these: a wider map would fold words.
const LOOKALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  А: "A", В: "B", Е: "E", К: "K", М: "M", Н: "H", О: "O", Р: "P", С: "C", Т: "T", Х: "X", У: "Y", Ѕ: "S", І: "I", Ј: "J", Ԛ: "Q", Ԝ: "W",
  а: "a", е: "e", о: "o", р: "p", с: "c", у: "y", х: "x", ѕ: "s", і: "i", ј: "j", ԁ: "d", ԛ: "q", ԝ: "w", һ: "h", ӏ: "l",
  // Greek
  Α: "A", Β: "B", Ε: "E", Ζ: "Z", Η: "H", Ι: "I", Κ: "K", Μ: "M", Ν: "N", Ο: "O", Ρ: "P", Τ: "T", Υ: "Y", Χ: "X",
  ο: "o", ν: "v", ι: "i", κ: "k", ρ: "p", υ: "u",
  // Latin letters without their dot, and small capitals (what "fancy text" generators write)
  ı: "i", ȷ: "j",
  ᴀ: "a", ʙ: "b", ᴄ: "c", ᴅ: "d", ᴇ: "e", ꜰ: "f", ɢ: "g", ʜ: "h", ɪ: "i", ᴊ: "j", ᴋ: "k", ʟ: "l", ᴍ: "m",
  ɴ: "n", ᴏ: "o", ᴘ: "p", ǫ: "q", ʀ: "r", ꜱ: "s", ᴛ: "t", ᴜ: "u", ᴠ: "v", ᴡ: "w", ʏ: "y", ᴢ: "z",
  // Dashes and minus signs, which a token's hyphens become in word processors (NFKC leaves them)
  "‐": "-", "‒": "-", "–": "-", "—": "-", "−": "-", "﹘": "-",
};

/** A folded text and the way back from its positions to the input's. */
export interface DetectionText {
  /** What the detectors read. */
  text: string;
  /** The span of the input that the non-empty folded span [start, end) came from (end exclusive). */
  toInput(start: number, end: number): { start: number; end: number };
}

const PLAIN = /^[\x00-\x7f]*$/;

/** A stretch of the folded text: copied from the input as it is, or the fold of one code point. */
interface Piece {
  /** Where it starts in the folded text, and its length there. */
  at: number;
  length: number;
  /** Where it starts in the input, and its length there. */
  from: number;
  inputLength: number;
  copied: boolean;
}

/**
 * The folded text of `input`. Plain ASCII, almost every text memd sees, is its own fold; in
 * other text only the code points the fold changes cost more than a copy.
 */
export function detectionText(input: string): DetectionText {
  if (PLAIN.test(input)) return { text: input, toInput: (start, end) => ({ start, end }) };
  const pieces: Piece[] = [];
  let text = "";
  let copiedFrom = 0;
  const copy = (until: number) => {
    if (until > copiedFrom) pieces.push({ at: text.length, length: until - copiedFrom, from: copiedFrom, inputLength: until - copiedFrom, copied: true });
    text += input.slice(copiedFrom, until);
  };
  for (const match of input.matchAll(/[^\x00-\x7f]/gu)) {
    const char = match[0];
    const folded = foldCodePoint(char);
    if (folded === char) continue;
    copy(match.index);
    if (folded !== "") pieces.push({ at: text.length, length: folded.length, from: match.index, inputLength: char.length, copied: false });
    text += folded;
    copiedFrom = match.index + char.length;
  }
  if (copiedFrom === 0) return { text: input, toInput: (start, end) => ({ start, end }) };
  copy(input.length);
  return {
    text,
    toInput: (start, end) => {
      const first = pieceAt(pieces, start);
      const last = pieceAt(pieces, end - 1);
      return {
        start: first.copied ? first.from + (start - first.at) : first.from,
        end: last.copied ? last.from + (end - last.at) : last.from + last.inputLength,
      };
    },
  };
}

/** The piece that holds the folded position `at` (the pieces cover the folded text in order). */
function pieceAt(pieces: readonly Piece[], at: number): Piece {
  let low = 0;
  let high = pieces.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((pieces[middle] as Piece).at <= at) low = middle;
    else high = middle - 1;
  }
  return pieces[low] as Piece;
}

function foldCodePoint(char: string): string {
  if (INVISIBLE.test(char)) return "";
  let out = "";
  for (const c of char.normalize("NFKC")) out += INVISIBLE.test(c) ? "" : (LOOKALIKES[c] ?? c);
  return out;
}
