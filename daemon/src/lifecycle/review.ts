import type { MemoryRecord } from "../memory/memory.js";
import { DAY_MS } from "./half-lives.js";

/** A rule saved without a review date is looked at again after this long. */
export const DEFAULT_RULE_REVIEW_INTERVAL_MS = 90 * DAY_MS;

export type ReviewInputs = Pick<MemoryRecord, "kind" | "status" | "createdAt" | "reviewAt">;

/**
 * The review date that applies to a memory: its own, or for a rule without one, creation plus
 * the interval. Rules never decay, so review is how a stale rule gets noticed.
 */
export function effectiveReviewAt(
  memory: Pick<MemoryRecord, "kind" | "createdAt" | "reviewAt">,
  intervalMs: number = DEFAULT_RULE_REVIEW_INTERVAL_MS,
): number | null {
  if (memory.reviewAt !== null) return memory.reviewAt;
  return memory.kind === "rule" ? memory.createdAt + intervalMs : null;
}

/**
 * Whether an active memory's review date has come. Any memory with an explicit review date
 * can be due, since someone asked for it; rules are due by default after the interval.
 */
export function isDueForReview(
  memory: ReviewInputs,
  now: number,
  intervalMs: number = DEFAULT_RULE_REVIEW_INTERVAL_MS,
): boolean {
  if (memory.status !== "active") return false;
  const reviewAt = effectiveReviewAt(memory, intervalMs);
  return reviewAt !== null && reviewAt <= now;
}
