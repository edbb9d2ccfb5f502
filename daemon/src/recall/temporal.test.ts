import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_TEMPORAL_BOOST, type TemporalWindow, temporalBoost, temporalWindow } from "./temporal.js";

const DAY = 24 * 60 * 60 * 1000;
// A Sunday noon; the weekday matters only to "last Friday".
const now = Date.UTC(2026, 2, 15, 12);
const daysAgo = (days: number) => now - days * DAY;

function windowOf(query: string): TemporalWindow {
  const w = temporalWindow(query, now);
  if (w === null) throw new Error(`no window for "${query}"`);
  return w;
}

/** True when a memory made `days` ago falls inside the window proper. */
function covers(query: string, days: number): boolean {
  const w = windowOf(query);
  return w.from <= daysAgo(days) && daysAgo(days) <= w.to;
}

describe("temporalWindow", () => {
  // Phrases of the dev set's temporal queries, with the ages of the memories they are after.
  it.each([
    ["what did we change about database connections roughly seven weeks ago?", [49, 50]],
    ["what did we decide about analytics a few weeks ago?", [24]],
    ["what was the flaky test fix from a few weeks ago?", [25]],
    ["what was I in the middle of in ledgerline over the last few days?", [2, 4]],
    ["what did we change for the prod dbt run about two weeks back?", [15]],
    ["what did we fix in env pull a couple of weeks ago?", [15]],
    ["what tooling change did we make to the Python environment about a month ago?", [35]],
    ["what did we fix in the webhook worker about a month ago?", [28, 30]],
    ["what did we change about secrets management around two months ago?", [58]],
    ["which Detox flake did we fix about two months ago?", [55]],
    ["the auth change from a couple of months back - what exactly did we switch to?", [71]],
    ["did I change anything about commit conventions in the last month or two?", [38, 39]],
    ["what happened with Karpenter in the last few weeks?", [12, 20]],
    ["what did we switch in the OTA config about a month and a half ago?", [40]],
    ["what broke in the Oracle extract last month?", [38, 41]],
    ["what did I leave unfinished yesterday?", [1]],
    ["what did we change last week about webhook retries?", [6]],
    ["what did I start on infra in the past couple of days?", [0, 2]],
    ["anything I noted for trailmix in the last few days?", [3]],
  ])("covers the memories meant by %j", (query, ages) => {
    for (const age of ages) expect(covers(query, age), `${age} days`).toBe(true);
  });

  it.each([
    ["roughly seven weeks ago", 212],
    ["about a month ago", 302],
    ["a couple of months back", 282],
    ["last week", 203],
  ])("leaves a memory far older than %j outside the window and its soft edge", (phrase, age) => {
    expect(temporalBoost(daysAgo(age), windowOf(`what changed ${phrase}?`))).toBeCloseTo(1, 3);
  });

  it("keeps the past couple of days apart from last week", () => {
    expect(covers("what did I start in the past couple of days?", 6)).toBe(false);
    expect(covers("what did I start last week?", 6)).toBe(true);
  });

  it("reads digits as well as number words", () => {
    const w = windowOf("what failed 3 days ago?");
    expect(covers("what failed 3 days ago?", 3)).toBe(true);
    expect(w.to - w.from).toBeLessThanOrEqual(DAY);
  });

  it("makes vague counts wider than exact ones", () => {
    const width = (q: string) => windowOf(q).to - windowOf(q).from;
    expect(width("a couple of weeks ago")).toBeGreaterThan(width("two weeks ago"));
  });

  it("returns the phrase as written, so a caller can drop it from keyword search", () => {
    expect(windowOf("What did we fix About A Month Ago in the worker?").phrase).toBe("About A Month Ago");
  });

  it("puts 'last Friday' on the calendar day, in UTC", () => {
    const w = windowOf("what did we deploy last Friday?");
    expect([w.from, w.to]).toEqual([Date.UTC(2026, 2, 13), Date.UTC(2026, 2, 14)]);
  });

  it("puts 'in March' on last year's March until this year's has begun", () => {
    expect(windowOf("what broke in March?").from).toBe(Date.UTC(2026, 2, 1));
    expect(windowOf("what broke in April?").from).toBe(Date.UTC(2025, 3, 1));
  });

  it.each([
    ["What painting did Melanie show on October 13, 2023?", Date.UTC(2023, 9, 13), "on October 13, 2023"],
    ["What did Gina find for her store on 1 February, 2023?", Date.UTC(2023, 1, 1), "on 1 February, 2023"],
    ["what shipped on the 3rd of June 2025", Date.UTC(2025, 5, 3), "on the 3rd of June 2025"],
    ["what broke on Sept. 9, 2025?", Date.UTC(2025, 8, 9), "on Sept. 9, 2025"],
    ["what did we change on 2026-03-02?", Date.UTC(2026, 2, 2), "on 2026-03-02"],
  ])("puts a calendar date in %j on that day, give or take a day", (query, day, phrase) => {
    const w = windowOf(query);
    expect([w.from, w.to, w.tolerance, w.phrase]).toEqual([day, day + DAY, DAY, phrase]);
  });

  it("names no day with a date that does not exist", () => {
    expect(temporalWindow("what happened on February 30, 2025?", now)).toBeNull();
  });

  it("puts 'in 2023' on that calendar year, and 'since 2025' from its start until now", () => {
    const w = windowOf("How many times has Melanie gone to the beach in 2023?");
    expect([w.from, w.to]).toEqual([Date.UTC(2023, 0, 1), Date.UTC(2024, 0, 1)]);
    expect(windowOf("what did we drop since 2025").to).toBe(now);
    expect(temporalWindow("what will we ship in 2030?", now)).toBeNull();
  });

  it("does not take the verb 'may' for the month", () => {
    expect(temporalWindow("we may want this in may", now)).toBeNull();
  });

  it("scopes 'today' only in a question that looks back", () => {
    expect(windowOf("what did I change today?").phrase).toBe("today");
    expect(temporalWindow("I want to ship a fix to prod users today. command and constraints?", now)).toBeNull();
  });

  it("takes the first time phrase in the query", () => {
    expect(windowOf("what did we fix yesterday, and what last week?").phrase).toBe("yesterday");
  });

  it.each([
    "which Go version does ledgerline build with?",
    "what was TM-530 about?",
    "ORA-00060 in the erp_orders extract again, what did we do last time?",
    "the elevation profile clips the last 5% of the track",
    "when I say 'first thing tomorrow', whose clock are you going by?",
    "how long does grainflow's nightly dbt run take?",
    "User is on payments on-call every 4th week",
  ])("finds no window in %j", (query) => {
    expect(temporalWindow(query, now)).toBeNull();
  });
});

describe("temporalBoost", () => {
  const w: TemporalWindow = { from: daysAgo(20), to: daysAgo(10), tolerance: 5 * DAY, phrase: "" };

  it("gives the full boost inside the window", () => {
    expect(temporalBoost(daysAgo(15), w)).toBe(DEFAULT_MAX_TEMPORAL_BOOST);
    expect(temporalBoost(daysAgo(10), w, 3)).toBe(3);
  });

  it("falls smoothly with distance outside the window, on either side", () => {
    const oneTolerance = temporalBoost(daysAgo(25), w);
    expect(oneTolerance).toBeCloseTo(1 + Math.exp(-0.5), 6);
    expect(temporalBoost(daysAgo(5), w)).toBeCloseTo(oneTolerance, 6);
    expect(temporalBoost(daysAgo(30), w)).toBeLessThan(oneTolerance);
  });

  it("never goes below 1, even for a maximum under 1", () => {
    expect(temporalBoost(daysAgo(400), w)).toBeGreaterThanOrEqual(1);
    expect(temporalBoost(daysAgo(15), w, 0.5)).toBe(1);
  });

  it("treats a zero tolerance as a hard window", () => {
    const hard = { ...w, tolerance: 0 };
    expect(temporalBoost(daysAgo(15), hard)).toBe(DEFAULT_MAX_TEMPORAL_BOOST);
    expect(temporalBoost(daysAgo(21), hard)).toBe(1);
  });
});
