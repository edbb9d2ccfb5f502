import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { MIGRATIONS } from "../store/sqlite/migrations.js";
import { stem } from "./porter-stem.js";
import { tokenize } from "./tokenize.js";

// Ground truth is SQLite itself: every text goes through an FTS5 table with the tokenizer of
// memories_fts, and fts5vocab(instance) lists the terms it indexed, by position.

const TOKENIZER = "porter unicode61 remove_diacritics 2";
const DEV_SET = path.resolve(import.meta.dirname, "../../../bench/data/eval-dev");
/** Splits the pieces of a batch; four bytes, no rule of the stemmer touches it. */
const MARKER = "zqzq";
/** Pieces per FTS5 row. */
const BATCH = 2000;

interface Mismatch {
  piece: string;
  codePoints: string;
  sqlite: string[];
  ours: string[];
}

/** The terms SQLite indexes for each text, in position order. */
function sqliteTerms(texts: readonly string[]): string[][] {
  const db = new Database(":memory:");
  try {
    db.exec(`
      CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = '${TOKENIZER}');
      CREATE VIRTUAL TABLE terms USING fts5vocab(docs, instance);
    `);
    const insert = db.prepare("INSERT INTO docs (rowid, body) VALUES (?, ?)");
    db.transaction(() => texts.forEach((text, i) => insert.run(i + 1, text)))();
    const result = texts.map((): string[] => []);
    const rows = db.prepare("SELECT term, doc, offset FROM terms").iterate() as Iterable<{ term: string; doc: number; offset: number }>;
    for (const row of rows) {
      const terms = result[row.doc - 1];
      if (terms === undefined) throw new Error(`fts5vocab reported an unknown doc ${row.doc}`);
      terms[row.offset] = row.term;
    }
    return result;
  } finally {
    db.close();
  }
}

/** The pieces on which tokenize() and SQLite disagree; pieces are batched, markers between them. */
function mismatches(pieces: readonly string[]): Mismatch[] {
  const batches: string[] = [];
  for (let i = 0; i < pieces.length; i += BATCH) {
    batches.push(pieces.slice(i, i + BATCH).join(` ${MARKER} `));
  }
  const found: Mismatch[] = [];
  sqliteTerms(batches).forEach((terms, b) => {
    let k = b * BATCH;
    let current: string[] = [];
    const compare = (): void => {
      const piece = pieces[k] ?? "";
      const ours = tokenize(piece);
      if (JSON.stringify(ours) !== JSON.stringify(current)) {
        const codePoints = [...piece].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`).join(" ");
        found.push({ piece, codePoints: codePoints.slice(0, 80), sqlite: current, ours });
      }
      k += 1;
      current = [];
    };
    for (const term of terms) {
      if (term === MARKER) compare();
      else current.push(term);
    }
    compare();
  });
  return found;
}

/** A deterministic pseudo-random source (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(next: () => number, items: readonly T[]): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

function codePointRange(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let c = from; c <= to; c += step) {
    if (c < 0xd800 || c > 0xdfff) out.push(c);
  }
  return out;
}

const ROOTS = [
  "act", "adapt", "agree", "allow", "analy", "apply", "arch", "argu", "authent", "author", "bak", "believ",
  "bill", "block", "build", "cach", "call", "care", "cass", "caus", "centr", "certif", "chang", "check",
  "class", "clean", "cod", "commit", "compil", "complet", "compos", "comput", "condit", "config", "conflat",
  "connect", "consum", "control", "creat", "cycl", "decid", "defin", "depend", "deploy", "describ", "design",
  "destroy", "develop", "differ", "digit", "direct", "doubl", "dri", "effect", "electr", "emplo", "encod",
  "engin", "equal", "err", "expect", "experi", "fail", "feed", "fil", "final", "fix", "flak", "format",
  "formal", "gener", "generos", "global", "happ", "hear", "hop", "hope", "identif", "implement", "index",
  "individu", "inform", "initi", "instal", "integr", "intern", "journal", "keep", "know", "lead", "limit",
  "log", "manag", "measur", "migrat", "mov", "nation", "natur", "norm", "notif", "observ", "operat", "optim",
  "organ", "pars", "partit", "perform", "persist", "plan", "plaster", "poni", "posit", "predict", "process",
  "produc", "program", "provid", "queu", "rat", "react", "real", "receiv", "record", "redact", "refer",
  "regist", "relat", "rel", "remov", "replic", "report", "requir", "resolv", "respons", "retri", "rout",
  "run", "sav", "schedul", "secur", "sens", "serv", "session", "sign", "siz", "sky", "sort", "special",
  "stabl", "stat", "stor", "structur", "success", "suppos", "sync", "system", "tan", "test", "thread",
  "token", "troubl", "trust", "typ", "util", "valid", "valu", "vers", "visual", "writ", "zip", "y", "yy",
];

const SUFFIXES = [
  "", "s", "es", "ies", "sses", "ss", "ed", "eed", "ing", "ings", "ation", "ations", "ational", "tional",
  "ization", "izations", "izer", "ize", "izes", "ized", "izing", "ise", "ness", "iveness", "fulness",
  "ousness", "ful", "fully", "ous", "ously", "ousli", "ive", "ively", "ivity", "iviti", "ly", "li", "alli",
  "ally", "entli", "eli", "bli", "ble", "able", "ability", "ibility", "biliti", "ible", "logi", "logy",
  "logical", "al", "ality", "aliti", "alism", "alize", "alized", "ical", "icate", "iciti", "icity", "ic",
  "ance", "ence", "enci", "anci", "ancy", "ency", "er", "ers", "ator", "ators", "ant", "ement", "ements",
  "ment", "ments", "ent", "ently", "ion", "ions", "sion", "tion", "ou", "ism", "isms", "ate", "ated",
  "ating", "ates", "iti", "ity", "ative", "y", "e", "ee", "eer", "ll", "l", "ling", "led", "at", "bl", "iz",
];

/** Words built from roots and one or two suffixes, plus every string of up to three letters. */
function englishVocabulary(): string[] {
  const words = new Set<string>();
  for (const root of ROOTS) {
    for (const a of SUFFIXES) {
      words.add(root + a);
      for (const b of ["s", "ed", "ing", "ly", "ness", "al", "ation", "e", "es"]) words.add(root + a + b);
    }
  }
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (const a of letters) {
    words.add(a);
    for (const b of letters) {
      words.add(a + b);
      for (const c of letters) words.add(a + b + c);
    }
  }
  return [...words];
}

/** Letter patterns the rules look at: consonant/vowel runs, "y" and double letters, then suffixes. */
function randomWords(count: number): string[] {
  const next = random(61);
  const syllables = [
    "b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s", "t", "v", "w", "x", "y", "z",
    "a", "e", "i", "o", "u", "y", "ll", "ss", "tt", "zz", "ee", "oo",
  ];
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    let word = "";
    const n = 1 + Math.floor(next() * 6);
    for (let k = 0; k < n; k++) word += pick(next, syllables);
    const m = Math.floor(next() * 3);
    for (let k = 0; k < m; k++) word += pick(next, SUFFIXES);
    words.push(word);
  }
  return words;
}

function devSetLines(): string[] {
  return ["memories.jsonl", "queries.jsonl"].flatMap((file) =>
    fs.readFileSync(path.join(DEV_SET, file), "utf8").split("\n").filter(Boolean),
  );
}

describe("tokenize", () => {
  it("uses the tokenizer that memories_fts is created with", () => {
    const db = new Database(":memory:");
    try {
      for (const migration of [...MIGRATIONS].sort((a, b) => a.version - b.version)) migration.up(db);
      const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'memories_fts'").get() as { sql: string };
      expect(sql).toContain(`tokenize = '${TOKENIZER}'`);
    } finally {
      db.close();
    }
  });

  it("stems English words exactly as SQLite's porter tokenizer does", () => {
    const words = englishVocabulary();
    expect(words.length).toBeGreaterThan(30_000);
    expect(mismatches(words)).toEqual([]);
  });

  it("stems random letter patterns and suffix chains exactly as SQLite does", () => {
    expect(mismatches(randomWords(40_000))).toEqual([]);
  });

  it("tokenizes the eval dev set line by line and word by word as SQLite does", () => {
    const lines = devSetLines();
    const words = [...new Set(lines.flatMap((line) => line.split(/\s+/)))];
    expect(mismatches(lines)).toEqual([]);
    expect(mismatches(words)).toEqual([]);
  });

  it("splits identifiers, paths and versions into the parts SQLite indexes", () => {
    const identifiers = [
      "PAY-1423", "src/auth/session.ts", "ERR_SSL_WRONG_VERSION_NUMBER", "camelCaseName", "v2.3.1", "x86_64",
      "snake_case_name", "kebab-case-name", "SCREAMING_SNAKE", "HTTPServerError", "getUserByID", "0xDEADBEEF",
      "192.168.0.1:8080", "user@example.com", "https://example.com/a/b?c=d&e=f#g", "C:\\Users\\me\\file.txt",
      "@scope/package@1.2.3", "#1234", "$HOME/.config", "node_modules/.bin/tsc", "README.md", "k8s", "i18n",
      "utf-8", "iso-8859-1", "e2e", "3rd", "1st", "100s", "2020-01-31T12:00:00Z", "1e10", "-42", "+3.14",
      "a11ing", "a1ing", "running123", "123running", "x86_64-linux-gnu", "libc.so.6", "TODO(alice):", "a.b.c",
    ];
    expect(mismatches(identifiers)).toEqual([]);
    expect(tokenize("PAY-1423 src/auth/session.ts")).toEqual(["pai", "1423", "src", "auth", "session", "ts"]);
    expect(tokenize("ERR_SSL_WRONG_VERSION_NUMBER camelCaseName v2.3.1 x86_64")).toEqual(
      ["err", "ssl", "wrong", "version", "number", "camelcasenam", "v2", "3", "1", "x86", "64"],
    );
  });

  it("stems digits and punctuation inside tokens as SQLite does", () => {
    const pieces: string[] = [];
    for (const digits of ["", "1", "11", "42", "007"]) {
      for (const suffix of ["s", "es", "ies", "ed", "ing", "ational", "ness", "ly", "y", "e", "ll"]) {
        pieces.push(digits + suffix, `a${digits}${suffix}`, `${suffix}${digits}`, `ab${digits}${digits}${suffix}`);
      }
    }
    expect(mismatches(pieces)).toEqual([]);
  });

  it("passes tokens through unstemmed below 3 and above 64 UTF-8 bytes, as SQLite does", () => {
    const pieces: string[] = [];
    for (let n = 0; n <= 70; n++) {
      for (const filler of ["a", "t", "é", "ж", "中", "𝐀"]) {
        pieces.push(filler.repeat(n) + "ational", filler.repeat(n) + "s", filler.repeat(n) + "ing", filler.repeat(n) + "y");
      }
    }
    pieces.push("s", "is", "es", "ies", "ss", "sss", "ed", "eed", "aed", "aing", "ing", "yed", "ying", "eing", "ll", "all");
    expect(mismatches(pieces)).toEqual([]);
    expect(stem("caresses")).toBe("caress");
    expect(stem("is")).toBe("is");
    expect(stem(`${"x".repeat(58)}ations`)).toBe(`${"x".repeat(58)}ation`);
    expect(stem(`${"x".repeat(59)}ations`)).toBe(`${"x".repeat(59)}ations`);
  });

  it("cuts tokens at 32768 bytes as FTS5 stores them, even inside a character", () => {
    const pieces = [
      "a".repeat(32767), "a".repeat(32768), "a".repeat(32769), "b".repeat(40000),
      "é".repeat(40000), "ж".repeat(16385), "中".repeat(11000), "𝐀".repeat(8193), `${"a".repeat(32767)}ж`,
    ];
    expect(mismatches(pieces)).toEqual([]);
    expect(tokenize("z".repeat(40000))).toEqual(["z".repeat(32768)]);
  });

  it("classifies and folds every BMP code point as SQLite does, alone and inside a token", () => {
    const chars = codePointRange(0, 0xffff).map((c) => String.fromCodePoint(c));
    expect(mismatches(chars)).toEqual([]);
    expect(mismatches(chars.map((c) => `x${c}y`))).toEqual([]);
    expect(mismatches(chars.map((c) => `${c}x`))).toEqual([]);
  });

  it("classifies and folds astral code points as SQLite does", () => {
    const codePoints = [
      ...codePointRange(0x10000, 0x2ffff),
      ...codePointRange(0x30000, 0x10ffff, 61),
      0x1f600, 0x1f680, 0x1f9d1, 0x1d400, 0x1d7ff, 0x20000, 0x2a6d6, 0xe0001, 0xe0100, 0xf0000, 0x10fffd, 0x10ffff,
    ];
    const chars = codePoints.map((c) => String.fromCodePoint(c));
    expect(mismatches(chars)).toEqual([]);
    expect(mismatches(chars.map((c) => `x${c}y`))).toEqual([]);
  });

  it("treats lone surrogates as separators, as SQLite sees them after UTF-8 encoding", () => {
    const pieces = ["x\ud800y", "x\udc00y", "\ud83dx", "x\ude00", "\udfff\ud800"];
    expect(mismatches(pieces)).toEqual([]);
    expect(tokenize("x\ud800y")).toEqual(["x", "y"]);
  });

  it("tokenizes random mixed-script text exactly as SQLite does", () => {
    const next = random(7);
    const fragments = [
      "the", "Running", "caresses", "PONIES", "migrations", "configured", "relational", "happily", "sky",
      "café", "naïve", "Ångström", "São", "Paulo", "ǅemo", "ﬁle", "straße", "İstanbul", "ΟΔΥΣΣΕΥΣ", "Ярослав",
      "中文分词", "日本語", "한국어", "العربية", "עברית", "हिन्दी", "ไทย", "𝐀𝐁𝐂", "𐐀𐐨", "😀", "👍🏽", "🇫🇷",
      "a\u0300", "e\u0301\u0302", "\u0300", "\u0327c", "o\u0308ing", "x\u200dy", "\u00ad", "\ufeff", "\u2082",
      "PAY-1423", "src/auth/session.ts", "ERR_SSL", "v2.3.1", "x86_64", "0xFF", "½", "①", "Ⅻ", "²", "٣",
      "—", "–", "…", "«", "»", "“", "”", "'", "\"", "(", ")", "[", "]", "{", "}", ".", ",", ";", ":", "!", "?",
      "\t", "\n", "\r\n", "\u00a0", "\u3000", "\u2028", "\0",
    ];
    const joiners = ["", "", " ", " ", " ", "-", "_", "/", ".", "\u0301"];
    const texts: string[] = [];
    for (let i = 0; i < 3000; i++) {
      let text = "";
      const n = 1 + Math.floor(next() * 30);
      for (let k = 0; k < n; k++) text += pick(next, fragments) + pick(next, joiners);
      texts.push(text);
    }
    expect(mismatches(texts)).toEqual([]);
  });
});
