import { InvalidInputError } from "../errors.js";
import { MEMORY_KINDS, type MemoryKind } from "../memory/memory.js";

/**
 * How long, in milliseconds, each kind of memory takes to lose half its weight when nothing
 * reinforces it. Infinity means the kind never decays.
 */
export type HalfLives = Readonly<Record<MemoryKind, number>>;

export const DAY_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_HALF_LIVES: HalfLives = Object.freeze({
  // How the user likes things done changes over seasons, not weeks.
  preference: 180 * DAY_MS,
  // How to build, release or debug something stays true until the tooling changes.
  procedure: 365 * DAY_MS,
  // Facts about a codebase drift as it is refactored.
  fact: 120 * DAY_MS,
  // A decision holds until it is revisited, which is rare once made.
  decision: 180 * DAY_MS,
  // Background on a project outlives any task but goes stale as the project moves on.
  context: 90 * DAY_MS,
  // A task is done or dropped within a couple of weeks.
  task: 14 * DAY_MS,
  // What happened in one session matters for about a week.
  episode: 7 * DAY_MS,
  // Tool output and raw observations are only useful for the next session or two.
  trace: 1 * DAY_MS,
  // An idea may be picked up years later; it must not quietly disappear.
  idea: Number.POSITIVE_INFINITY,
  // A rule never fades away; it is flagged for review instead (see review.ts).
  rule: Number.POSITIVE_INFINITY,
});

/**
 * Merges configured half-lives over the defaults. Config may come from JSON, so unknown kinds and
 * non-numbers are rejected too, each with a message naming the kind.
 */
export function validateHalfLives(partial: Readonly<Record<string, unknown>>): HalfLives {
  const merged: Record<MemoryKind, number> = { ...DEFAULT_HALF_LIVES };
  for (const [kind, value] of Object.entries(partial)) {
    if (value === undefined) continue;
    if (!isMemoryKind(kind)) {
      throw new InvalidInputError(
        `half-life given for "${kind}", which is not a memory kind; use one of ${MEMORY_KINDS.join(", ")}`,
      );
    }
    if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
      throw new InvalidInputError(
        `half-life for "${kind}" must be a positive number of milliseconds (Infinity: never decays), got ${String(value)}`,
      );
    }
    merged[kind] = value;
  }
  return merged;
}

function isMemoryKind(value: string): value is MemoryKind {
  return (MEMORY_KINDS as readonly string[]).includes(value);
}
