/**
 * The token stream SQLite FTS5 indexes for `tokenize = 'porter unicode61 remove_diacritics 2'`,
 * so that an in-memory index counts and ranks the same terms as bm25() over memories_fts.
 *
 * unicode61 splits on every code point outside the categories L*, N* and Co (as SQLite's own
 * Unicode tables classify them, not as the JS engine's newer ones would), folds case, strips
 * diacritics, and keeps a few combining marks inside a token (dropping them) while a mark
 * cannot start one. Each token then goes through the porter stemmer, and FTS5 stores at most
 * 32768 bytes of it.
 */
import { stem } from "./porter-stem.js";

/** FTS5 stores at most this many bytes of a token (FTS5_MAX_TOKEN_SIZE). */
const MAX_TOKEN_BYTES = 32768;

const SEPARATOR = 0;
const TOKEN_CHAR = 1;
/** A combining mark: part of a token it follows (and dropped from it), a separator elsewhere. */
const MARK = 2;

// The tables below were read off SQLite 3.53's unicode61 itself, one code point at a time;
// tokenize.test.ts checks every code point against the linked SQLite, so a future SQLite
// with other tables fails there. They hold code points from U+0080 on (ASCII is built in code),
// numbers in base 36.

/**
 * Token characters, as ranges "gap+span": a range starts `gap` after the end of the one before
 * and holds span + 1 code points. SQLite's table is odd past the BMP (its astral lookup counts
 * many unassigned code points, and all of plane 16, as token characters); these ranges say
 * what it does, not what Unicode says.
 */
const TOKEN_CHAR_RANGES = [
  "4q 7+1 1 3+1 1+2 1+m 1+u 1+cp 4+b e+4 7 1 3l+4 1+7 1+4 2 1+31 1+3u 8+5r 6+14 2+3 1 1j+16 2+a 5",
  "m+1 2+16 l+9 4+1 1+2q 1 f+1 7+e 2 e 1 1+t r+2i b+1l 9+1 4+r 4 9 3 5+1 f+p 3+1 1+3o r 4+1h 3 i",
  "7+9 4+9 1+f 3+1j 1 7+1 2+1 3+8 1+9 2+d 2+5 2+4 3+1j 1 5+3 2+1 3+2 1+t 2+2 1+a 3+1j 1 8 3 3+j 2+b",
  "2+e 3+1j 1 7+1 2+1 3+7 2+9 2+b 1+g 1+1m 5+2 3 4+8 1+q 8+5 3+1l 7 3 4+6 2+a 2+q 1+1 2+1j 1 7 3",
  "4+6 2+a 2+t 2+1l 7 3 4+8 1+9 2+k 1+7 2+1x 1+3 6 1 8+h 3+1n 1+1 7+3 1+6 9+9 2+2c 1+1 6 2+a 6+1e",
  "v+j c+1c n+4 b 10 f d+27 k+a 6+5 4+3 3 3+1 7+2 4+c c 1+9 6+2i 1+gw c+12 a+2t 1+h7 2+g 1+p 2+25",
  "3+z 3+s 5+q 2+t 2+1r z 4 1+x f+49 1+39 c+3 c+3 1+2 2+2x h+6 2+j y+m 5+1 2+1g a t+1 1+v 7 6+29",
  "5+1a h+k z+2 3+t d+1j e+7 4+z k+2 5+1p 2+1r 8+7 p+3 1+3 3+5m 13+k 4+cc 1 3+a 3+c 3+c 3+c 2 2t+4",
  "6+9 5+a 5+g q+l x+e 2 4 2+9 1 3+4 6 1 1 1+3 1+a 2+3 5+4 4 1+1r h0+b 13+o b+28 26+l e8 39+t qh+2",
  "a+ay 6+3 3+6 4 2+33 1+d 1+2n 27 c+1v q 2h+b 5y+p c+3 5+2 p+8 7+4 2+4 3+2g 4+2 1+2h 1+43 2+3 a+v",
  "10+r v+a u+7 1+e w+9 13+e 1r 74+533 1s+h3j 1j+1i 2+7g 3+2m g+v 1+27 8+7 n+8 2+2u 2+3a 1+2 1+3",
  "1+m 9+9 4+1l 4+7 2+1d h+8 2+f i+5 3+16 a+m d+a 1+v 4+1a r+f 2+20 e+b 1+7 2+d 4+m 3 1+1f 1 3+1",
  "2+4 2 1+r 2+a 7+2 2+6j b+8pd 1kw+5ct 1+9 1+3r g+aj 2+57 2+1 q+5 7+8 z j 4+42 1 f+9 7+p 6+p b+3d",
  "7 7+9 7+73 3+1f 9+1k h+5 c+1f 1a+bk 1+1b 1+w5 1+5i 1+u 1+5c 3 2+4 4+13 3+3 1+f 9+11 1+54 7+xr",
  "3+1g m+1d 3+18 i+1p 3+z e+a 4+1n 3+1b e+3 4+yp d+2pj 4+esc 1a+f 4+j1o 6u+9 13+1 51+x 1y+55 2f+o9",
  "1+o 1+u 1+o 1+u 1+o 1+u 1+o 1+u 1+o 1+4kr 2+7h 18+3 2s+b f+1 e+1 f f+1b v 1o+3 17+22 t+c 17+4",
  "9+6 2+4t x+e 6 1y+2 k+b 11 5+k h+e 1r 1 52 4+2 1q+1 4+b o+42 1y+3 b+1b 1y+1l 38+gwi4 1+t 2o+3j",
  "6o+47bj",
].join(" ");

/** The combining marks of MARK, in the format of TOKEN_CHAR_RANGES. */
const MARK_RANGES = [
  "lc+4 1+6 2 1 9 7+5 4+1 1+1",
].join(" ");

/**
 * Case folding, as runs "[~]start[*count]:delta": a run starts `start` after the one before,
 * covers `count` (default 1) code points, every other one if marked "~", each mapped to itself
 * plus delta.
 */
const CASE_FOLD_RUNS = [
  "51:lj b*n:w o*7:w ~14*o:1 ~1e*3:1 ~7*8:1 ~h*n:1 1a:-3d ~1*3:1 6:-7g 2:5u ~1*2:1 4:5q 1:1 2*2:5p",
  "2:1 3:27 1:5m 1:5n 1:1 2:5p 1:5r 2:5v 1:5t 1:1 4:5v 1:5x 2:5y ~1*3:1 6:62 1:1 2:62 3:1 2:62 1:1",
  "2*2:61 ~2*2:1 4:63 1:1 4:1 8:2 1:1 2:2 1:1 2:2 ~1*9:1 ~j*9:1 j:2 ~1*2:1 4:-2p 1:-1k ~1*k:1",
  "14:-3m ~2*9:1 o:8bv 1:1 2:-4j 1:8bs 3:1 2:-5f 1:1x 1:1z ~1*5:1 ~8a*2:1 6:1 g:12 2*3:11 4:1s",
  "2*2:1r 3*h:w i*9:w v:1 d:8 1:-u 1:-p 4:-f 1:-m ~2*c:1 o:-1i 1:-1c 3:-1o 1:-1s 2:1 2:-7 1:1",
  "3*3:-3m 3*g:28 g*w:w ~28*h:1 ~16*r:1 1i:f ~1*7:1 ~f*18:1 2p*12:1c 29b*12:5ls 13:5ls 6:5ls",
  "~2lv*23:1 4b:-1m 3:-5vj ~2*1c:1 2w*8:-8 g*6:-8 g*8:-8 g*8:-8 g*6:-8 ~h*4:-8 f*8:-8 w*8:-8 g*8:-8",
  "g*8:-8 g*2:-8 2*2:-22 2:-9 2:-5j9 a*4:-2e 4:-9 c*2:-8 2*2:-2s e*2:-8 2*2:-34 2:-7 c*2:-3k",
  "2*2:-3i 2:-9 8a:-5st 4:-6gv 1:-6di 7:s 1a*g:g z:1 22l*1b:1c 2o:1 2:-8af 1:-2xy 1:-89z ~3*3:1",
  "6:-8bg 1:-8al 1:-8bj 1:-8bi 2:1 3:1 9*2:-8cf ~2*1e:1 ~2z*2:1 7:1 ~nym*n:1 ~1s*c:1 ~4i*7:1 ~g*v:1",
  "~1z*2:1 4:-r9g ~1*5:1 d:1 2:-wmg ~3*2:1 ~g*5:1 a:-wn8 h9z*q:w yn*14:14",
].join(" ");

/**
 * remove_diacritics 2, applied to case-folded code points: runs like those of CASE_FOLD_RUNS,
 * "[~]start[*count]:base", that map each code point to `base`.
 */
const DIACRITIC_BASE_RUNS = [
  "68*6:2p 7:2r 1*4:2t 4*4:2x 5:32 1*5:33 7*4:39 ~4*2:3d ~4*3:2p ~6*4:2r 8:2s ~4*5:2t ~a*4:2v 8:2w",
  "~4*4:2x 7:2x 5:2y 2:2z ~3*3:30 ~a*3:32 ~9*3:33 ~8*3:36 ~6*4:37 ~8*2:38 ~6*6:39 c:3b 2:3d ~3*3:3e",
  "13:33 f:39 u:2p 2:2x 2:33 ~2*5:39 b:2p 8:2v 2:2z ~2*2:33 5:2y 5:2v 4:32 2:2p ~6*2:2p ~4*2:2t",
  "~4*2:2x ~4*2:33 ~4*2:36 ~4*2:39 4:37 2:38 4:2w 8:2p 2:2t ~2*4:33 8:3d 5hq:2p ~2*3:2q 6:2r",
  "~2*5:2s ~a*5:2t a:2u 2:2v ~2*5:2w ~a*2:2x ~4*3:2z ~6*4:30 ~8*3:31 ~6*4:32 ~8*4:33 ~8*2:34",
  "~4*4:36 ~8*5:37 ~a*4:38 ~8*5:39 ~a*2:3a ~4*5:3b ~a*2:3c 4:3d ~2*3:3e 5:2w 1:38 1:3b 1:3d ~8*c:2p",
  "~o*8:2t ~g*2:2x ~4*c:33 ~o*7:39 ~e*4:3d",
].join(" ");

/** Character class of each BMP code point (SEPARATOR, TOKEN_CHAR or MARK). */
const bmpClass = new Uint8Array(0x10000);
/** What each BMP code point becomes in a token; 0: dropped. */
const bmpFold = new Uint16Array(0x10000);
/** Token character ranges past the BMP, as [start, end] pairs. */
const astralTokenRanges: number[] = [];
/** Case folding past the BMP (SQLite folds only Deseret there). */
const astralFold = new Map<number, number>();

/** Calls `visit(start, end)` for each range of a TOKEN_CHAR_RANGES-style table. */
function forEachRange(table: string, visit: (start: number, end: number) => void): void {
  let next = 0;
  for (const item of table.split(" ")) {
    const [gap = "", span = "0"] = item.split("+");
    const start = next + parseInt(gap, 36);
    const end = start + parseInt(span, 36);
    visit(start, end);
    next = end + 1;
  }
}

/** Calls `visit(codePoint, value)` for each code point of a CASE_FOLD_RUNS-style table. */
function forEachRun(table: string, visit: (codePoint: number, value: number) => void): void {
  let start = 0;
  for (const item of table.split(" ")) {
    const stride = item.startsWith("~") ? 2 : 1;
    const [head = "", value = ""] = item.slice(stride - 1).split(":");
    const [offset = "", count = "1"] = head.split("*");
    start += parseInt(offset, 36);
    const n = parseInt(count, 36);
    for (let k = 0; k < n; k++) visit(start + k * stride, parseInt(value, 36));
  }
}

function buildTables(): void {
  for (let c = 0; c < 0x10000; c++) bmpFold[c] = c;
  for (let c = 0x30; c < 0x7b; c++) {
    const digit = c <= 0x39;
    const upper = c >= 0x41 && c <= 0x5a;
    const lower = c >= 0x61;
    if (digit || upper || lower) bmpClass[c] = TOKEN_CHAR;
    if (upper) bmpFold[c] = c + 0x20;
  }
  forEachRange(TOKEN_CHAR_RANGES, (start, end) => {
    for (let c = start; c <= Math.min(end, 0xffff); c++) bmpClass[c] = TOKEN_CHAR;
    if (end > 0xffff) astralTokenRanges.push(Math.max(start, 0x10000), end);
  });
  forEachRun(CASE_FOLD_RUNS, (c, delta) => {
    if (c > 0xffff) astralFold.set(c, c + delta);
    else bmpFold[c] = c + delta;
  });
  const base = new Uint16Array(0x10000);
  forEachRun(DIACRITIC_BASE_RUNS, (c, to) => (base[c] = to));
  for (let c = 0x80; c < 0x10000; c++) {
    const to = base[bmpFold[c] ?? 0];
    if (to) bmpFold[c] = to;
  }
  forEachRange(MARK_RANGES, (start, end) => {
    for (let c = start; c <= end; c++) {
      bmpClass[c] = MARK;
      bmpFold[c] = 0;
    }
  });
}
buildTables();

function classOf(codePoint: number): number {
  if (codePoint < 0x10000) return bmpClass[codePoint] ?? SEPARATOR;
  let lo = 0;
  let hi = astralTokenRanges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (codePoint < (astralTokenRanges[2 * mid] ?? 0)) hi = mid - 1;
    else if (codePoint > (astralTokenRanges[2 * mid + 1] ?? 0)) lo = mid + 1;
    else return TOKEN_CHAR;
  }
  return SEPARATOR;
}

function foldOf(codePoint: number): number {
  if (codePoint < 0x10000) return bmpFold[codePoint] ?? codePoint;
  return astralFold.get(codePoint) ?? codePoint;
}

function utf8Length(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

// Words repeat across memories (a vocabulary of thousands): stemming each once is enough.
const STEMS_HELD = 100_000;
const stems = new Map<string, string>();

function cachedStem(token: string): string {
  let stemmed = stems.get(token);
  if (stemmed === undefined) {
    if (stems.size >= STEMS_HELD) stems.clear();
    stemmed = stem(token);
    stems.set(token, stemmed);
  }
  return stemmed;
}

/** The term FTS5 stores for a folded token of `bytes` UTF-8 bytes. */
function indexTerm(token: string, bytes: number): string {
  if (bytes <= MAX_TOKEN_BYTES) return cachedStem(token);
  // Past the limit FTS5 cuts bytes, possibly inside a character; it reads back as U+FFFD.
  if (bytes === token.length) return token.slice(0, MAX_TOKEN_BYTES);
  return Buffer.from(token, "utf8").subarray(0, MAX_TOKEN_BYTES).toString("utf8");
}

/**
 * Reads the token that starts at `start` with a token character, whatever it holds; pushes its
 * term and returns where the token ends.
 */
function readToken(text: string, start: number, tokens: string[]): number {
  const n = text.length;
  const codePoints: number[] = [];
  let bytes = 0;
  let i = start;
  while (i < n) {
    const c = text.charCodeAt(i);
    let codePoint = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        width = 2;
      }
    }
    // A lone surrogate reaches SQLite as U+FFFD, a separator: its class here is SEPARATOR too.
    if (classOf(codePoint) === SEPARATOR) break;
    const folded = foldOf(codePoint);
    if (folded !== 0) {
      codePoints.push(folded);
      bytes += utf8Length(folded);
    }
    i += width;
  }
  tokens.push(indexTerm(fromCodePoints(codePoints), bytes));
  return i;
}

/** String.fromCodePoint in slices, so that a huge token does not overflow the argument list. */
function fromCodePoints(codePoints: readonly number[]): string {
  const SLICE = 4096;
  if (codePoints.length <= SLICE) return String.fromCodePoint(...codePoints);
  let text = "";
  for (let k = 0; k < codePoints.length; k += SLICE) text += String.fromCodePoint(...codePoints.slice(k, k + SLICE));
  return text;
}

/** The terms FTS5 indexes for `text`, in order, one per token (see the file comment). */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      const pair = c >= 0xd800 && c <= 0xdbff ? text.codePointAt(i) ?? c : c;
      if (classOf(pair) === TOKEN_CHAR) i = readToken(text, i, tokens);
      else i += pair > 0xffff ? 2 : 1;
      continue;
    }
    if (bmpClass[c] !== TOKEN_CHAR) {
      i++;
      continue;
    }
    // Fast path: a token of ASCII letters and digits, the common case in English and code.
    let end = i + 1;
    let upper = c <= 0x5a && c >= 0x41;
    while (end < n) {
      const d = text.charCodeAt(end);
      if (d >= 0x80 || bmpClass[d] !== TOKEN_CHAR) break;
      if (d <= 0x5a && d >= 0x41) upper = true;
      end++;
    }
    if (end < n && text.charCodeAt(end) >= 0x80) {
      // The next character may continue the token (a letter, a mark): read it in full.
      i = readToken(text, i, tokens);
      continue;
    }
    const token = upper ? text.slice(i, end).toLowerCase() : text.slice(i, end);
    tokens.push(indexTerm(token, token.length));
    i = end;
  }
  return tokens;
}
