import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../errors.js";
import { MEMORY_KINDS } from "../memory/memory.js";
import { DAY_MS, DEFAULT_HALF_LIVES, validateHalfLives } from "./half-lives.js";

describe("DEFAULT_HALF_LIVES", () => {
  it("gives every kind a positive half-life", () => {
    for (const kind of MEMORY_KINDS) expect(DEFAULT_HALF_LIVES[kind]).toBeGreaterThan(0);
  });

  it("never decays ideas or rules", () => {
    expect(DEFAULT_HALF_LIVES.idea).toBe(Number.POSITIVE_INFINITY);
    expect(DEFAULT_HALF_LIVES.rule).toBe(Number.POSITIVE_INFINITY);
  });

  it("keeps procedures longest and traces shortest among the decaying kinds", () => {
    const finite = MEMORY_KINDS.map((k) => DEFAULT_HALF_LIVES[k]).filter(Number.isFinite);
    expect(Math.max(...finite)).toBe(DEFAULT_HALF_LIVES.procedure);
    expect(Math.min(...finite)).toBe(DEFAULT_HALF_LIVES.trace);
    expect(DEFAULT_HALF_LIVES.episode).toBeLessThan(DEFAULT_HALF_LIVES.fact);
    expect(DEFAULT_HALF_LIVES.task).toBeLessThan(DEFAULT_HALF_LIVES.decision);
  });
});

describe("validateHalfLives", () => {
  it("returns the defaults when nothing is configured", () => {
    expect(validateHalfLives({})).toEqual(DEFAULT_HALF_LIVES);
  });

  it("overrides only the configured kinds", () => {
    const merged = validateHalfLives({ trace: 2 * DAY_MS, idea: 1000 * DAY_MS });
    expect(merged).toEqual({ ...DEFAULT_HALF_LIVES, trace: 2 * DAY_MS, idea: 1000 * DAY_MS });
  });

  it("accepts Infinity to make a kind never decay", () => {
    expect(validateHalfLives({ fact: Number.POSITIVE_INFINITY }).fact).toBe(Number.POSITIVE_INFINITY);
  });

  it("skips keys whose value is undefined", () => {
    expect(validateHalfLives({ fact: undefined })).toEqual(DEFAULT_HALF_LIVES);
  });

  it.each([
    ["zero", 0],
    ["a negative number", -DAY_MS],
    ["NaN", Number.NaN],
    ["minus Infinity", Number.NEGATIVE_INFINITY],
    ["a string", "7d"],
  ])("rejects %s and names the kind", (_label, value) => {
    expect(() => validateHalfLives({ episode: value })).toThrow(InvalidInputError);
    expect(() => validateHalfLives({ episode: value })).toThrow(/half-life for "episode" must be a positive number/);
  });

  it("rejects a key that is not a memory kind", () => {
    expect(() => validateHalfLives({ facts: DAY_MS })).toThrow(/"facts", which is not a memory kind/);
  });

  it("does not change the defaults when it merges", () => {
    validateHalfLives({ fact: 1 });
    expect(DEFAULT_HALF_LIVES.fact).toBe(120 * DAY_MS);
  });
});
