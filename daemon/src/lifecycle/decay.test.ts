import { describe, expect, it } from "vitest";
import {
  type DecayInputs, decayAnchor, decayOverDays, decayWeight, effectiveHalfLifeMs, importanceFactor, intensityFactor,
} from "./decay.js";
import { DAY_MS, DEFAULT_HALF_LIVES, validateHalfLives } from "./half-lives.js";

const created = Date.UTC(2026, 0, 1);
const h = DEFAULT_HALF_LIVES.fact;

/** A neutral fact: importance 3, no intensity, confidence 0, so the raw half-life applies. */
function fact(overrides: Partial<DecayInputs> = {}): DecayInputs {
  return { kind: "fact", pinned: false, importance: 3, intensity: 0, confidence: 0, createdAt: created, ...overrides };
}

describe("decayWeight", () => {
  it("weighs a memory 1 at the moment it was made", () => {
    expect(decayWeight(fact(), null, created, DEFAULT_HALF_LIVES)).toBe(1);
  });

  it("halves the weight exactly at one half-life", () => {
    expect(decayWeight(fact(), null, created + h, DEFAULT_HALF_LIVES)).toBe(0.5);
  });

  it("quarters the weight at two half-lives", () => {
    expect(decayWeight(fact(), null, created + 2 * h, DEFAULT_HALF_LIVES)).toBe(0.25);
  });

  it("uses each kind's own half-life", () => {
    const trace = fact({ kind: "trace" });
    expect(decayWeight(trace, null, created + DAY_MS, DEFAULT_HALF_LIVES)).toBe(0.5);
    expect(decayWeight(fact(), null, created + DAY_MS, DEFAULT_HALF_LIVES)).toBeGreaterThan(0.99);
  });

  it("honours configured half-lives", () => {
    const halfLives = validateHalfLives({ fact: 10 * DAY_MS });
    expect(decayWeight(fact(), null, created + 10 * DAY_MS, halfLives)).toBe(0.5);
  });

  it("tends to zero, never below, after a very long time", () => {
    const w = decayWeight(fact({ kind: "trace" }), null, created + 1e6 * DAY_MS, DEFAULT_HALF_LIVES);
    expect(w).toBeGreaterThanOrEqual(0);
    expect(w).toBeLessThan(1e-9);
  });

  it("treats a time before creation as no time at all", () => {
    expect(decayWeight(fact(), null, created - DAY_MS, DEFAULT_HALF_LIVES)).toBe(1);
  });

  it("slows decay by confidence: (2^(-t/h))^(1 - confidence)", () => {
    const core = fact({ confidence: 0.85 });
    expect(decayWeight(core, null, created + h, DEFAULT_HALF_LIVES)).toBeCloseTo(2 ** -0.15, 12);
    const half = fact({ confidence: 0.5 });
    expect(decayWeight(half, null, created + 2 * h, DEFAULT_HALF_LIVES)).toBeCloseTo(0.5, 12);
  });

  it("does not decay a memory of confidence 1", () => {
    expect(decayWeight(fact({ confidence: 1 }), null, created + 100 * h, DEFAULT_HALF_LIVES)).toBe(1);
  });

  it("never decays a pinned memory", () => {
    expect(decayWeight(fact({ kind: "trace", pinned: true }), null, created + 1e6 * DAY_MS, DEFAULT_HALF_LIVES)).toBe(1);
  });

  it("never decays an idea or a rule", () => {
    for (const kind of ["idea", "rule"] as const) {
      expect(decayWeight(fact({ kind }), null, created + 1e6 * DAY_MS, DEFAULT_HALF_LIVES)).toBe(1);
    }
  });

  it("counts time from the last reinforcement, not from creation", () => {
    const reinforced = created + 3 * h;
    expect(decayWeight(fact(), reinforced, reinforced + h, DEFAULT_HALF_LIVES)).toBe(0.5);
  });

  it("ignores a reinforcement time earlier than creation", () => {
    expect(decayWeight(fact(), created - 5 * h, created + h, DEFAULT_HALF_LIVES)).toBe(0.5);
  });

  it("decays slower for important and intense memories", () => {
    const t = created + h;
    const plain = decayWeight(fact(), null, t, DEFAULT_HALF_LIVES);
    expect(decayWeight(fact({ importance: 5 }), null, t, DEFAULT_HALF_LIVES)).toBeGreaterThan(plain);
    expect(decayWeight(fact({ importance: 1 }), null, t, DEFAULT_HALF_LIVES)).toBeLessThan(plain);
    expect(decayWeight(fact({ intensity: 1 }), null, t, DEFAULT_HALF_LIVES)).toBeGreaterThan(plain);
  });
});

describe("decayAnchor", () => {
  it("is the creation time until the memory is reinforced", () => {
    expect(decayAnchor({ createdAt: created }, null)).toBe(created);
    expect(decayAnchor({ createdAt: created }, created + 5)).toBe(created + 5);
  });
});

describe("effectiveHalfLifeMs", () => {
  it("is the kind's half-life for a neutral memory", () => {
    expect(effectiveHalfLifeMs(fact({ kind: "episode" }), DEFAULT_HALF_LIVES)).toBe(DEFAULT_HALF_LIVES.episode);
  });

  it("halves it at importance 1 and doubles it at importance 5", () => {
    expect(effectiveHalfLifeMs(fact({ importance: 1 }), DEFAULT_HALF_LIVES)).toBe(h / 2);
    expect(effectiveHalfLifeMs(fact({ importance: 5 }), DEFAULT_HALF_LIVES)).toBe(h * 2);
  });

  it("triples it for a memory of full emotional intensity", () => {
    expect(effectiveHalfLifeMs(fact({ intensity: 1 }), DEFAULT_HALF_LIVES)).toBe(h * 3);
  });

  it("multiplies importance and intensity", () => {
    expect(effectiveHalfLifeMs(fact({ importance: 5, intensity: 1 }), DEFAULT_HALF_LIVES)).toBe(h * 6);
  });

  it("is infinite for a pinned memory", () => {
    expect(effectiveHalfLifeMs(fact({ pinned: true }), DEFAULT_HALF_LIVES)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("importanceFactor", () => {
  it("runs from 0.5 to 2 with 3 neutral", () => {
    expect([1, 3, 5].map(importanceFactor)).toEqual([0.5, 1, 2]);
    expect(importanceFactor(4)).toBeCloseTo(Math.SQRT2, 12);
  });

  it("clamps values outside 1..5", () => {
    expect(importanceFactor(0)).toBe(0.5);
    expect(importanceFactor(9)).toBe(2);
  });
});

describe("intensityFactor", () => {
  it("barely moves for mild feelings and reaches 3 at full intensity", () => {
    expect(intensityFactor(0)).toBe(1);
    expect(intensityFactor(0.2)).toBeCloseTo(1.08, 12);
    expect(intensityFactor(0.5)).toBe(1.5);
    expect(intensityFactor(1)).toBe(3);
  });
});

describe("decayOverDays", () => {
  it("starts at 1, and at confidence 0 halves at the kind's half-life", () => {
    const weights = decayOverDays("episode", 0, 14, DEFAULT_HALF_LIVES);
    expect(weights).toHaveLength(15);
    expect(weights[0]).toBe(1);
    expect(weights[7]).toBeCloseTo(0.5);
    expect(weights[14]).toBeCloseTo(0.25);
  });

  it("fades slower with more confidence, and never below 0 or above 1", () => {
    const unsure = decayOverDays("fact", 0.2, 365, DEFAULT_HALF_LIVES);
    const sure = decayOverDays("fact", 0.9, 365, DEFAULT_HALF_LIVES);
    expect(sure[365]).toBeGreaterThan(unsure[365] ?? 1);
    expect([...unsure, ...sure].every((w) => w >= 0 && w <= 1)).toBe(true);
  });
});
