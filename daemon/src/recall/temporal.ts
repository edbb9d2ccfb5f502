/**
 * Time-scoped queries ("what did we change last week", "the auth change from a couple of months
 * back"): the phrase becomes a window of creation times, and memories made inside it are boosted.
 * People are vague about time, so every window is wider than the literal phrase and has soft
 * edges; a memory just outside still gets part of the boost.
 *
 * Periods are rolling, counted back from `now`, not calendar periods: "last week" means between
 * about two weeks and a couple of days ago whatever the weekday, so the same query finds the same
 * memories on a Monday and on a Friday.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UNITS = { hour: HOUR, day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY } as const;
type Unit = keyof typeof UNITS;

/** A span of creation times, in ms since the epoch, that a query's time phrase points at. */
export interface TemporalWindow {
  /** The oldest creation time inside the window. */
  from: number;
  /** The newest creation time inside the window. */
  to: number;
  /** How soft the edges are: a memory this many ms outside the window keeps about 60% of the boost. */
  tolerance: number;
  /** The phrase as written in the query, so that a caller can leave it out of keyword search. */
  phrase: string;
}

/** The largest multiplier temporalBoost gives by default, for a memory inside the window. */
export const DEFAULT_MAX_TEMPORAL_BOOST = 2;

// How far a count may be off, as a share of the time it names: "two weeks ago" is a few days
// either way; "a couple of weeks ago" and "a few weeks ago" are vaguer still.
const SPREAD = { exact: 0.15, approximate: 0.2, vague: 0.35 } as const;
type Vagueness = keyof typeof SPREAD;

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, "half a": 0.5, couple: 2, "a couple": 2, "a couple of": 2, "couple of": 2, few: 3,
  "a few": 3, several: 4,
};
const VAGUE_COUNTS = new Set(["couple", "a couple", "a couple of", "couple of", "few", "a few", "several"]);
const COUNT = `(\\d+(?:\\.\\d+)?|half a|a couple of|a couple|couple of|a few|few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
const UNIT = `(hour|day|week|month|year)s?`;
const APPROXIMATELY = `(?:(about|around|roughly|approximately|approx\\.?|~|some|maybe|like|nearly|almost)\\s+)?`;

const AGO = new RegExp(`\\b${APPROXIMATELY}${COUNT}\\s+${UNIT}(\\s+and\\s+a\\s+half)?\\s+(?:ago|back|before now)\\b`, "i");
const COUNT_AND_HALF_AGO = new RegExp(`\\b${APPROXIMATELY}(an?|one)\\s+and\\s+a\\s+half\\s+${UNIT}\\s+(?:ago|back)\\b`, "i");
const IN_THE_LAST = new RegExp(
  `\\b(?:(?:in|over|during|within|for)\\s+)?(the\\s+)?(last|past)\\s+(?:${COUNT}\\s+)?${UNIT}(?:\\s+or\\s+${COUNT})?\\b`,
  "i",
);
const THIS = /\b(?:this\s+(week|month|year)|today)\b/i;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const WEEKDAY = new RegExp(`\\b(?:last|on|this past)\\s+(${WEEKDAYS.join("|")})\\b`, "i");
const MONTHS = [
  "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
];
// "may" and "march" are verbs too: a month needs "in"/"during"/"since" before it and, for May, its capital.
const IN_MONTH = new RegExp(`\\b(in|during|back in|since|early|late|mid)[\\s-]+(${MONTHS.join("|")})(?:\\s+(\\d{4}))?\\b`, "i");

const MONTH_NAME = `(${MONTHS.join("|")}|sept|${MONTHS.map((m) => m.slice(0, 3)).join("|")})\\.?`;
const ORDINAL = `(\\d{1,2})(?:st|nd|rd|th)?`;
// A calendar date: "October 13, 2023", "13 October 2023", "1 February, 2023", "2023-10-13".
const DATES: readonly [RegExp, (m: RegExpExecArray) => [number, number, number]][] = [
  [new RegExp(`\\b(?:on\\s+)?${MONTH_NAME}\\s+${ORDINAL},?\\s+(\\d{4})\\b`, "i"), (m) => [Number(m[3]), monthIndex(m[1] as string), Number(m[2])]],
  [new RegExp(`\\b(?:on\\s+)?(?:the\\s+)?${ORDINAL}\\s+(?:of\\s+)?${MONTH_NAME},?\\s+(\\d{4})\\b`, "i"), (m) => [Number(m[3]), monthIndex(m[2] as string), Number(m[1])]],
  [/\b(?:on\s+)?(\d{4})-(\d{2})-(\d{2})\b/, (m) => [Number(m[1]), Number(m[2]) - 1, Number(m[3])]],
];
const IN_YEAR = /\b(?:in|during|since|back in|throughout)\s+((?:19|20)\d{2})\b(?![-/]\d)/i;

interface Span {
  /** Days (or other unit) ago of the newest and oldest edge, and the tolerance, all in ms. */
  newest: number;
  oldest: number;
  tolerance: number;
}

// "Ship it to users today" plans; "what did I change today" remembers. A phrase for the
// current period scopes memories only when the question looks back.
const LOOKS_BACK = /\b(?:did|was|were|had|has|have|happened|earlier|so far|\w+ed)\b|\b(?:i|we|you)'(?:ve|d)\b/i;

/** Phrases without a count, as spans back from now. */
const FIXED_PHRASES: readonly [RegExp, Span][] = [
  [/\b(?:earlier today|this morning|this afternoon)\b/i, { newest: 0, oldest: DAY, tolerance: 6 * HOUR }],
  [/\b(?:last night|yesterday evening)\b/i, { newest: 4 * HOUR, oldest: 36 * HOUR, tolerance: 6 * HOUR }],
  [/\b(?:the day before yesterday)\b/i, { newest: 1.5 * DAY, oldest: 3 * DAY, tolerance: 12 * HOUR }],
  [/\byesterday\b/i, { newest: 6 * HOUR, oldest: 2 * DAY, tolerance: 12 * HOUR }],
  [/\bthe other day\b/i, { newest: DAY, oldest: 7 * DAY, tolerance: 2 * DAY }],
  [/\b(?:recently|lately|recent)\b/i, { newest: 0, oldest: 14 * DAY, tolerance: 7 * DAY }],
];

/**
 * The window of creation times a query's time phrase points at, or null when the query names
 * no time. The first phrase in the query wins.
 */
export function temporalWindow(query: string, now: number): TemporalWindow | null {
  const candidates = [
    matchAgo(query, now),
    matchInTheLast(query, now),
    matchThis(query, now),
    matchWeekday(query, now),
    matchDate(query),
    matchMonth(query, now),
    matchYear(query, now),
    ...FIXED_PHRASES.map(([pattern, span]) => {
      const m = pattern.exec(query);
      return m ? located(m, window(now, span, m[0])) : null;
    }),
  ].filter((c): c is Located => c !== null);
  candidates.sort((a, b) => a.index - b.index);
  return candidates[0]?.window ?? null;
}

/**
 * A multiplier in [1, maxBoost] for a memory created at `createdAt`: maxBoost inside the window,
 * falling smoothly (a Gaussian of the distance, in tolerances) to 1 away from it.
 */
export function temporalBoost(createdAt: number, window: TemporalWindow, maxBoost = DEFAULT_MAX_TEMPORAL_BOOST): number {
  const distance = createdAt < window.from ? window.from - createdAt : createdAt > window.to ? createdAt - window.to : 0;
  const closeness = window.tolerance > 0 ? Math.exp(-0.5 * (distance / window.tolerance) ** 2) : distance === 0 ? 1 : 0;
  return 1 + (Math.max(1, maxBoost) - 1) * closeness;
}

interface Located {
  index: number;
  window: TemporalWindow;
}

function located(m: RegExpExecArray, w: TemporalWindow): Located {
  return { index: m.index, window: w };
}

function window(now: number, span: Span, phrase: string): TemporalWindow {
  return { from: now - span.oldest, to: now - span.newest, tolerance: span.tolerance, phrase: phrase.trim() };
}

/** "two weeks ago", "roughly seven weeks ago", "a month and a half back", "3 days ago". */
function matchAgo(query: string, now: number): Located | null {
  const halfFirst = COUNT_AND_HALF_AGO.exec(query);
  const m = AGO.exec(query);
  if (halfFirst && (!m || halfFirst.index <= m.index)) {
    const unit = UNITS[(halfFirst[3] as string).toLowerCase() as Unit];
    return located(halfFirst, around(now, 1.5 * unit, unit, "approximate", halfFirst[0]));
  }
  if (!m) return null;
  const count = parseCount(m[2] as string);
  if (count === null) return null;
  const unit = UNITS[(m[3] as string).toLowerCase() as Unit];
  const extra = m[4] ? 0.5 : 0;
  const vagueness: Vagueness = VAGUE_COUNTS.has((m[2] as string).toLowerCase())
    ? "vague"
    : m[1] || /^an?$/i.test(m[2] as string)
      ? "approximate"
      : "exact";
  return located(m, around(now, (count + extra) * unit, unit, vagueness, m[0]));
}

/** A window centred `ago` ms back, as wide as the vagueness allows but never under a quarter unit. */
function around(now: number, ago: number, unit: number, vagueness: Vagueness, phrase: string): TemporalWindow {
  const halfWidth = Math.max(unit / 4, SPREAD[vagueness] * ago);
  return window(now, { newest: Math.max(0, ago - halfWidth), oldest: ago + halfWidth, tolerance: Math.max(unit / 4, 0.25 * ago) }, phrase);
}

/**
 * "in the last few days", "past couple of days", "the last month or two": from now back over the
 * span (stretched by its vagueness). A bare "last week" / "last month" is the previous period:
 * back to two units ago, leaving out the most recent quarter unit.
 */
function matchInTheLast(query: string, now: number): Located | null {
  const m = IN_THE_LAST.exec(query);
  if (!m) return null;
  const [, the, lastOrPast, countWord, unitWord, orCount] = m;
  const unit = UNITS[(unitWord as string).toLowerCase() as Unit];
  const bare = !the && (lastOrPast as string).toLowerCase() === "last" && !countWord && !orCount;
  if (bare) return located(m, window(now, { newest: unit / 4, oldest: 2 * unit, tolerance: unit / 4 }, m[0]));
  const count = Math.max(parseCount(countWord ?? "1") ?? 1, orCount ? (parseCount(orCount) ?? 1) : 0);
  const vague = orCount !== undefined || VAGUE_COUNTS.has((countWord ?? "").toLowerCase());
  const span = count * unit * (1 + SPREAD[vague ? "vague" : "approximate"]);
  return located(m, window(now, { newest: 0, oldest: span, tolerance: Math.max(unit / 4, 0.25 * span) }, m[0]));
}

function matchThis(query: string, now: number): Located | null {
  const m = THIS.exec(query);
  if (!m || !LOOKS_BACK.test(query)) return null;
  const unit = m[1] ? UNITS[m[1].toLowerCase() as Unit] : DAY;
  return located(m, window(now, { newest: 0, oldest: unit, tolerance: unit / 4 }, m[0]));
}

/** "last Friday", "on Monday": the most recent such day before today, in UTC. */
function matchWeekday(query: string, now: number): Located | null {
  const m = WEEKDAY.exec(query);
  if (!m) return null;
  const weekday = WEEKDAYS.indexOf((m[1] as string).toLowerCase());
  const today = new Date(now).getUTCDay();
  const daysBack = (today - weekday + 7) % 7 || 7;
  const dayStart = Math.floor(now / DAY) * DAY - daysBack * DAY;
  return located(m, { from: dayStart, to: dayStart + DAY, tolerance: 12 * HOUR, phrase: m[0] });
}

/** "in March", "back in March 2025": the calendar month (UTC), last year's if this year's is yet to come. */
function matchMonth(query: string, now: number): Located | null {
  const m = IN_MONTH.exec(query);
  if (!m) return null;
  const name = m[2] as string;
  if (name.toLowerCase() === "may" && name !== "May") return null;
  const month = MONTHS.indexOf(name.toLowerCase());
  const current = new Date(now);
  let year = m[3] ? Number(m[3]) : current.getUTCFullYear();
  if (!m[3] && Date.UTC(year, month, 1) > now) year -= 1;
  const start = Date.UTC(year, month, 1);
  const end = Math.min(Date.UTC(year, month + 1, 1), now);
  if ((m[1] as string).toLowerCase() === "since") return located(m, { from: start, to: now, tolerance: 7 * DAY, phrase: m[0] });
  return located(m, { from: start, to: end, tolerance: 7 * DAY, phrase: m[0] });
}

/** "on October 13, 2023", "13 October 2023", "2023-10-13": that day (UTC), give or take a day. */
function matchDate(query: string): Located | null {
  for (const [pattern, parts] of DATES) {
    const m = pattern.exec(query);
    if (!m) continue;
    const [year, month, day] = parts(m);
    const start = Date.UTC(year, month, day);
    // "February 30" and the like name no day.
    if (month < 0 || new Date(start).getUTCDate() !== day) continue;
    return located(m, { from: start, to: start + DAY, tolerance: DAY, phrase: m[0] });
  }
  return null;
}

/** "in 2023", "since 2024": the calendar year (UTC), or from its start until now. */
function matchYear(query: string, now: number): Located | null {
  const m = IN_YEAR.exec(query);
  if (!m) return null;
  const start = Date.UTC(Number(m[1]), 0, 1);
  if (start > now) return null;
  const to = /^since$/i.test(m[0].split(/\s+/)[0] as string) ? now : Math.min(Date.UTC(Number(m[1]) + 1, 0, 1), now);
  return located(m, { from: start, to, tolerance: 15 * DAY, phrase: m[0] });
}

function monthIndex(name: string): number {
  const lower = name.toLowerCase().replace(/\.$/, "");
  return MONTHS.findIndex((month) => month === lower || month.slice(0, 3) === lower.slice(0, 3));
}

function parseCount(word: string): number | null {
  const lower = word.toLowerCase().replace(/\s+/g, " ");
  if (/^\d+(?:\.\d+)?$/.test(lower)) return Number(lower);
  return NUMBER_WORDS[lower] ?? null;
}
