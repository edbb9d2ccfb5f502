/**
 * Just enough of TOML to edit a config file as text: which lines are table headers, which start
 * a key/value pair (and its dotted key), and which continue a multi-line string or array, so
 * that a "[x]" inside a string or an array is never taken for a header. Everything else in the
 * file is kept byte for byte.
 */

export type TomlLineKind = "blank" | "comment" | "header" | "pair" | "continuation";

export interface TomlLine {
  kind: TomlLineKind;
  /** The dotted key of a header or of a pair, unquoted: [a."b.c"] is ["a", "b.c"]. */
  keys: string[];
  /** True for an array-of-tables header [[...]]. */
  arrayTable: boolean;
}

interface ScanState {
  /** Inside a multi-line string opened on an earlier line. */
  multiline: '"""' | "'''" | null;
  /** Open brackets and braces of a value that spans lines. */
  depth: number;
}

/** Classifies every line (split on \n; a trailing \r stays part of the line). */
export function classifyTomlLines(lines: readonly string[]): TomlLine[] {
  const state: ScanState = { multiline: null, depth: 0 };
  return lines.map((line) => {
    if (state.multiline !== null || state.depth > 0) {
      scanValue(line, 0, state);
      return { kind: "continuation", keys: [], arrayTable: false };
    }
    const trimmed = line.trim();
    if (trimmed === "") return { kind: "blank", keys: [], arrayTable: false };
    if (trimmed.startsWith("#")) return { kind: "comment", keys: [], arrayTable: false };
    const start = line.length - line.trimStart().length;
    if (line[start] === "[") {
      const header = parseHeader(line, start);
      if (header) return { kind: "header", keys: header.keys, arrayTable: header.arrayTable };
    }
    const key = parseDottedKey(line, start);
    if (key && line[skipSpace(line, key.end)] === "=") {
      scanValue(line, skipSpace(line, key.end) + 1, state);
      return { kind: "pair", keys: key.keys, arrayTable: false };
    }
    // Not valid TOML; keep it as it is and let the owner's TOML parser complain.
    return { kind: "continuation", keys: [], arrayTable: false };
  });
}

function parseHeader(line: string, start: number): { keys: string[]; arrayTable: boolean } | null {
  const arrayTable = line[start + 1] === "[";
  const key = parseDottedKey(line, start + (arrayTable ? 2 : 1));
  if (!key) return null;
  let pos = skipSpace(line, key.end);
  if (line[pos] !== "]") return null;
  pos += 1;
  if (arrayTable) {
    if (line[pos] !== "]") return null;
    pos += 1;
  }
  pos = skipSpace(line, pos);
  if (pos < line.length && line[pos] !== "#" && line.slice(pos).trim() !== "") return null;
  return { keys: key.keys, arrayTable };
}

/** A key/value pair written on one line, taken apart so that its value can be replaced alone. */
export interface OneLinePair {
  /** The spaces before the key. */
  indent: string;
  keys: string[];
  /** The value as written, without the spaces around it. */
  value: string;
  /** What follows the value: spaces and a comment, or "". */
  trailer: string;
}

/** The pair on this line, or null when it is no pair or its value goes on to later lines. */
export function parseOneLinePair(line: string): OneLinePair | null {
  const start = line.length - line.trimStart().length;
  const key = parseDottedKey(line, start);
  if (!key) return null;
  const equals = skipSpace(line, key.end);
  if (line[equals] !== "=") return null;
  const state: ScanState = { multiline: null, depth: 0 };
  const comment = scanValue(line, equals + 1, state);
  if (state.multiline !== null || state.depth > 0) return null;
  const valueEnd = (comment < 0 ? line : line.slice(0, comment)).trimEnd().length;
  return { indent: line.slice(0, start), keys: key.keys, value: line.slice(equals + 1, valueEnd).trim(), trailer: line.slice(valueEnd) };
}

/** One entry of an inline table: its text as written (trimmed) and its dotted key. */
export interface InlineEntry {
  text: string;
  keys: string[];
}

/** The entries of a value written as a one-line inline table, "{ A = 1, B = [2, 3] }", or null. */
export function inlineTableEntries(value: string): InlineEntry[] | null {
  if (!value.startsWith("{") || !value.endsWith("}")) return null;
  const texts: string[] = [];
  let depth = 0;
  let from = 1;
  let i = 1;
  while (i < value.length - 1) {
    const c = value[i] as string;
    if (c === '"' || c === "'") {
      const triple = c.repeat(3) as '"""' | "'''";
      i = value.startsWith(triple, i) ? findMultilineEnd(value, i + 3, triple) : endOfString(value, i + 1, c);
      if (i < 0) return null;
      continue;
    }
    if (c === "[" || c === "{") depth += 1;
    else if (c === "]" || c === "}") depth -= 1;
    else if (c === "," && depth === 0) {
      texts.push(value.slice(from, i));
      from = i + 1;
    }
    if (depth < 0) return null;
    i += 1;
  }
  if (depth !== 0 || i !== value.length - 1) return null;
  const last = value.slice(from, -1);
  if (texts.length > 0 || last.trim() !== "") texts.push(last);
  const entries: InlineEntry[] = [];
  for (const text of texts) {
    const key = parseDottedKey(text, skipSpace(text, 0));
    if (!key || text[skipSpace(text, key.end)] !== "=") return null;
    entries.push({ text: text.trim(), keys: key.keys });
  }
  return entries;
}

function skipSpace(line: string, pos: number): number {
  while (pos < line.length && (line[pos] === " " || line[pos] === "\t")) pos += 1;
  return pos;
}

/** A dotted key starting at pos (after optional spaces): bare, "basic" and 'literal' parts. */
function parseDottedKey(line: string, pos: number): { keys: string[]; end: number } | null {
  const keys: string[] = [];
  for (;;) {
    pos = skipSpace(line, pos);
    const part = parseKeyPart(line, pos);
    if (!part) return null;
    keys.push(part.key);
    pos = skipSpace(line, part.end);
    if (line[pos] !== ".") return { keys, end: pos };
    pos += 1;
  }
}

function parseKeyPart(line: string, pos: number): { key: string; end: number } | null {
  const quote = line[pos];
  if (quote === '"' || quote === "'") {
    let key = "";
    for (let i = pos + 1; i < line.length; i += 1) {
      const c = line[i] as string;
      if (c === quote) return { key, end: i + 1 };
      if (quote === '"' && c === "\\") {
        const escaped = unescapeAt(line, i);
        key += escaped.text;
        i = escaped.end - 1;
      } else key += c;
    }
    return null;
  }
  const bare = /^[A-Za-z0-9_-]+/.exec(line.slice(pos));
  return bare ? { key: bare[0], end: pos + bare[0].length } : null;
}

const SIMPLE_ESCAPES: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", e: "\x1b", '"': '"', "\\": "\\" };

function unescapeAt(line: string, i: number): { text: string; end: number } {
  const c = line[i + 1] ?? "";
  if (c in SIMPLE_ESCAPES) return { text: SIMPLE_ESCAPES[c] as string, end: i + 2 };
  const width = c === "u" ? 4 : c === "U" ? 8 : c === "x" ? 2 : 0;
  if (width > 0) {
    const hex = line.slice(i + 2, i + 2 + width);
    if (/^[0-9A-Fa-f]+$/.test(hex) && hex.length === width) return { text: String.fromCodePoint(parseInt(hex, 16)), end: i + 2 + width };
  }
  return { text: c, end: i + 2 };
}

/**
 * Follows strings, comments and brackets from pos to the end of the line, updating state.
 * Returns where a comment starts (its "#"), or -1.
 */
function scanValue(line: string, pos: number, state: ScanState): number {
  let i = pos;
  while (i < line.length) {
    if (state.multiline !== null) {
      const close = findMultilineEnd(line, i, state.multiline);
      if (close < 0) return -1;
      state.multiline = null;
      i = close;
      continue;
    }
    const c = line[i];
    if (c === "#") return i;
    if (c === '"' || c === "'") {
      const triple = c.repeat(3);
      if (line.startsWith(triple, i)) {
        state.multiline = triple as '"""' | "'''";
        i += 3;
        continue;
      }
      i = endOfString(line, i + 1, c);
      continue;
    }
    if (c === "[" || c === "{") state.depth += 1;
    else if ((c === "]" || c === "}") && state.depth > 0) state.depth -= 1;
    i += 1;
  }
  return -1;
}

/** The index after a one-line string's closing quote (or the line's end). */
function endOfString(line: string, i: number, quote: string): number {
  while (i < line.length) {
    if (quote === '"' && line[i] === "\\") i += 2;
    else if (line[i] === quote) return i + 1;
    else i += 1;
  }
  return i;
}

/** The index after a multi-line string's closing delimiter on this line, or -1. */
function findMultilineEnd(line: string, i: number, delimiter: '"""' | "'''"): number {
  while (i < line.length) {
    if (delimiter === '"""' && line[i] === "\\") {
      i += 2;
      continue;
    }
    if (line.startsWith(delimiter, i)) {
      // Up to two quotes right before the delimiter belong to the string: """a""""" ends last.
      let end = i + 3;
      while (end < line.length && end < i + 5 && line[end] === delimiter[0]) end += 1;
      return end;
    }
    i += 1;
  }
  return -1;
}
