import { describe, expect, it } from "vitest";
import { confidenceBoost, frequencyBoost, lifecycleScore } from "./recall-score.js";

describe("frequencyBoost", () => {
  it("is 1 for a memory never accessed", () => {
    expect(frequencyBoost(0)).toBe(1);
  });

  it("grows by a tenth per doubling of accesses", () => {
    expect(frequencyBoost(1)).toBe(1.1);
    expect(frequencyBoost(3)).toBe(1.2);
    expect(frequencyBoost(1023)).toBe(2);
  });

  it("treats a negative count as zero", () => {
    expect(frequencyBoost(-5)).toBe(1);
  });
});

describe("confidenceBoost", () => {
  it("runs from 0.5 at confidence 0 to 1 at confidence 1", () => {
    expect(confidenceBoost(0)).toBe(0.5);
    expect(confidenceBoost(0.5)).toBe(0.75);
    expect(confidenceBoost(1)).toBe(1);
  });
});

describe("lifecycleScore", () => {
  it("multiplies decay weight, frequency boost and confidence boost", () => {
    expect(lifecycleScore({ decayWeight: 0.5, accessCount: 3, confidence: 0.5 })).toBeCloseTo(0.5 * 1.2 * 0.75, 12);
  });

  it("is zero for a fully decayed memory however often it was read", () => {
    expect(lifecycleScore({ decayWeight: 0, accessCount: 1000, confidence: 1 })).toBe(0);
  });

  it("is 1 for a fresh, certain memory never read", () => {
    expect(lifecycleScore({ decayWeight: 1, accessCount: 0, confidence: 1 })).toBe(1);
  });
});
