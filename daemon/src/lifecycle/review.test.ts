import { describe, expect, it } from "vitest";
import { DAY_MS } from "./half-lives.js";
import { DEFAULT_RULE_REVIEW_INTERVAL_MS, type ReviewInputs, effectiveReviewAt, isDueForReview } from "./review.js";

const created = Date.UTC(2026, 0, 1);

function rule(overrides: Partial<ReviewInputs> = {}): ReviewInputs {
  return { kind: "rule", status: "active", createdAt: created, reviewAt: null, ...overrides };
}

describe("effectiveReviewAt", () => {
  it("gives a rule without a review date one 90 days after creation", () => {
    expect(DEFAULT_RULE_REVIEW_INTERVAL_MS).toBe(90 * DAY_MS);
    expect(effectiveReviewAt(rule())).toBe(created + 90 * DAY_MS);
  });

  it("uses a configured interval", () => {
    expect(effectiveReviewAt(rule(), 7 * DAY_MS)).toBe(created + 7 * DAY_MS);
  });

  it("keeps an explicit review date", () => {
    expect(effectiveReviewAt(rule({ reviewAt: created + DAY_MS }))).toBe(created + DAY_MS);
  });

  it("gives other kinds no default review date", () => {
    expect(effectiveReviewAt(rule({ kind: "fact" }))).toBeNull();
  });
});

describe("isDueForReview", () => {
  it("flags a rule whose review date has passed", () => {
    const r = rule({ reviewAt: created + DAY_MS });
    expect(isDueForReview(r, created + DAY_MS - 1)).toBe(false);
    expect(isDueForReview(r, created + DAY_MS)).toBe(true);
  });

  it("flags a rule without a review date once the default interval has passed", () => {
    expect(isDueForReview(rule(), created + 89 * DAY_MS)).toBe(false);
    expect(isDueForReview(rule(), created + 90 * DAY_MS)).toBe(true);
  });

  it("flags any kind that was given an explicit review date", () => {
    expect(isDueForReview(rule({ kind: "decision", reviewAt: created }), created)).toBe(true);
  });

  it("never flags a fact without a review date", () => {
    expect(isDueForReview(rule({ kind: "fact" }), created + 10_000 * DAY_MS)).toBe(false);
  });

  it("never flags a memory that is not active", () => {
    for (const status of ["staged", "archived", "superseded"] as const) {
      expect(isDueForReview(rule({ status, reviewAt: created }), created + DAY_MS)).toBe(false);
    }
  });
});
