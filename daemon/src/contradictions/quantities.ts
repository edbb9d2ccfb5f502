/**
 * The numbers a sentence states, in comparable form: durations in milliseconds, sizes in bytes,
 * times of day in minutes, ports, percentages, versions and plain counts ("3 replicas", "twice a
 * week", "two cups"). Two memories that give different numbers for the same thing disagree;
 * "10s" and "10 seconds" do not.
 */

export type QuantityFamily = "count" | "duration" | "size" | "percent" | "clock" | "port" | "version";

export interface Quantity {
  family: QuantityFamily;
  /** Comparable value: a number in the family's base unit, or a version string ("1.6.2", "3.x"). */
  value: number | string;
  /** The text as written. */
  raw: string;
  start: number;
  end: number;
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, once: 1, two: 2, twice: 2, three: 3, thrice: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8,
  nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, hundred: 100,
};

const DURATION_MS: Record<string, number> = {
  ms: 1, millisecond: 1, s: 1000, sec: 1000, second: 1000, m: 60_000, min: 60_000, minute: 60_000, h: 3_600_000,
  hr: 3_600_000, hour: 3_600_000, d: 86_400_000, day: 86_400_000, week: 604_800_000, month: 2_592_000_000,
  year: 31_536_000_000,
};

const SIZE_BYTES: Record<string, number> = {
  b: 1, byte: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, ki: 1024, kib: 1024, mi: 1024 ** 2, mib: 1024 ** 2, gi: 1024 ** 3, gib: 1024 ** 3,
};

const WORDS = Object.keys(NUMBER_WORDS).join("|");
const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|(?:${WORDS})\b)`;
/** A number and its unit: digits may touch the unit ("10s"), a word may not ("an" and "d" are not "and"). */
const NUMBER_UNIT = String.raw`(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|(?:${WORDS})(?=[\s-]))[\s-]?`;
/** Not part of an identifier, a version, a path or a ticket ("ubuntu-22.04", "SHA-256", "v3", "ACME-123"). */
const BEFORE = String.raw`(?<![\w.\-/:#@$])`;
const AFTER = String.raw`(?![\w\-/@]|\.\d)`;

interface Rule {
  family: QuantityFamily;
  pattern: RegExp;
  read: (m: RegExpMatchArray) => number | string | undefined;
}

const RULES: readonly Rule[] = [
  // "localhost:5432", ":8080".
  { family: "port", pattern: /(?<=(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\s):)(\d{2,5})\b/g, read: (m) => Number(m[1]) },
  { family: "clock", pattern: new RegExp(String.raw`${BEFORE}([01]?\d|2[0-3]):([0-5]\d)(?:\s*(am|pm))?${AFTER}`, "gi"), read: (m) => clockMinutes(m) },
  // "27:12" as a run's time: minutes and seconds.
  { family: "duration", pattern: new RegExp(String.raw`${BEFORE}(\d{2,3}):([0-5]\d)${AFTER}`, "g"), read: (m) => (Number(m[1]) * 60 + Number(m[2])) * 1000 },
  { family: "version", pattern: new RegExp(String.raw`${BEFORE}v?(\d+(?:\.(?:\d+|x)){1,3})${AFTER}`, "gi"), read: (m) => (m[1] as string).toLowerCase() },
  { family: "size", pattern: new RegExp(String.raw`${BEFORE}${NUMBER_UNIT}(bytes?|b|kb|mb|gb|tb|kib|mib|gib|ki|mi|gi)\b`, "gi"), read: (m) => scaled(m, SIZE_BYTES) },
  {
    family: "duration",
    pattern: new RegExp(String.raw`${BEFORE}${NUMBER_UNIT}(ms|milliseconds?|s|secs?|seconds?|m(?!\s*cpu)|mins?|minutes?|h|hrs?|hours?|d|days?|weeks?|months?|years?)\b`, "gi"),
    read: (m) => scaled(m, DURATION_MS, (unit) => unit.replace(/s$/, "")),
  },
  { family: "percent", pattern: new RegExp(String.raw`${BEFORE}(\d+(?:\.\d+)?)\s?%`, "g"), read: (m) => Number(m[1]) },
  { family: "count", pattern: new RegExp(String.raw`${BEFORE}${NUMBER}${AFTER}`, "gi"), read: (m) => numberValue(m[1] as string) },
];

/**
 * The quantities of a sentence, left to right. Each rule blanks what it took, so "25 MB" is one
 * size and not also a count; a number standing for "a"/"an" counts only before a unit.
 */
export function findQuantities(sentence: string): Quantity[] {
  let text = sentence;
  const found: Quantity[] = [];
  for (const rule of RULES) {
    for (const m of text.matchAll(rule.pattern)) {
      if (m.index === undefined) continue;
      const word = (m[1] ?? "").toLowerCase();
      // "a" and "an" are numbers only with a unit ("an hour"), never alone.
      if (rule.family === "count" && (word === "a" || word === "an")) continue;
      const value = rule.read(m);
      if (value === undefined) continue;
      found.push({ family: rule.family, value, raw: m[0], start: m.index, end: m.index + m[0].length });
      text = text.slice(0, m.index) + " ".repeat(m[0].length) + text.slice(m.index + m[0].length);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Whether two quantities of one family say the same: equal numbers, or versions one of which covers the other ("20" and "20.x"). */
export function sameQuantity(a: Quantity, b: Quantity): boolean {
  if (typeof a.value === "string" || typeof b.value === "string") {
    const left = String(a.value).replace(/(?:\.x)+$/, "");
    const right = String(b.value).replace(/(?:\.x)+$/, "");
    return left === right || left.startsWith(`${right}.`) || right.startsWith(`${left}.`);
  }
  return Math.abs(a.value - b.value) <= 1e-9 * Math.max(1, Math.abs(a.value), Math.abs(b.value));
}

function numberValue(text: string): number | undefined {
  const lower = text.toLowerCase();
  if (lower in NUMBER_WORDS) return NUMBER_WORDS[lower];
  const value = Number(lower.replace(/,/g, ""));
  return Number.isFinite(value) ? value : undefined;
}

function scaled(m: RegExpMatchArray, units: Record<string, number>, normalize: (unit: string) => string = (u) => u): number | undefined {
  const amount = numberValue(m[1] as string);
  const raw = (m[2] as string).toLowerCase();
  const unit = units[raw] ?? units[normalize(raw)];
  return amount === undefined || unit === undefined ? undefined : amount * unit;
}

function clockMinutes(m: RegExpMatchArray): number {
  const suffix = (m[3] ?? "").toLowerCase();
  const hours = Number(m[1]);
  const hour24 = suffix === "pm" && hours < 12 ? hours + 12 : suffix === "am" && hours === 12 ? 0 : hours;
  return hour24 * 60 + Number(m[2]);
}
