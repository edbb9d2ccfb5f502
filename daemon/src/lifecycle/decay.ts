import type { MemoryRecord } from "../memory/memory.js";
import { DAY_MS, type HalfLives } from "./half-lives.js";

/** The fields of a memory that decide how fast it fades. */
export type DecayInputs = Pick<MemoryRecord, "kind" | "pinned" | "importance" | "intensity" | "confidence" | "createdAt">;

/**
 * Importance 1..5 scales the half-life geometrically from 0.5x to 2x, with 3 (the default)
 * neutral: each step up multiplies it by √2, so "more important" means "lasts longer" evenly.
 */
export function importanceFactor(importance: number): number {
  return 2 ** ((clamp(importance, 1, 5) - 3) / 2);
}

/**
 * Emotional intensity 0..1 lengthens the half-life up to 3x. The curve is quadratic so mild
 * feelings barely count while near-1 moments ("flashbulb memories": the outage, the data loss)
 * are kept far longer, as people keep them.
 */
export function intensityFactor(intensity: number): number {
  return 1 + 2 * clamp(intensity, 0, 1) ** 2;
}

/** The kind's half-life stretched by importance and intensity; Infinity for pinned memories. */
export function effectiveHalfLifeMs(memory: DecayInputs, halfLives: HalfLives): number {
  if (memory.pinned) return Number.POSITIVE_INFINITY;
  return halfLives[memory.kind] * importanceFactor(memory.importance) * intensityFactor(memory.intensity);
}

/**
 * When the decay clock last restarted: creation or the latest reinforcement (a new write,
 * a merge, a corroboration). Reads and recalls never restart it: being looked at is not evidence.
 */
export function decayAnchor(memory: Pick<MemoryRecord, "createdAt">, lastReinforcedAt: number | null): number {
  return lastReinforcedAt === null ? memory.createdAt : Math.max(memory.createdAt, lastReinforcedAt);
}

/**
 * A true half-life, slowed by confidence: (2^(-t/h))^(1 - confidence). At t = h a memory of
 * confidence 0 weighs exactly 0.5; at confidence 0.85 it fades at 15% of that rate; at
 * confidence 1 it does not fade. Returns a weight in [0, 1].
 */
export function decayWeight(
  memory: DecayInputs,
  lastReinforcedAt: number | null,
  now: number,
  halfLives: HalfLives,
): number {
  const halfLife = effectiveHalfLifeMs(memory, halfLives);
  // A clock that moved backwards (or a future timestamp from another machine) must not inflate weight.
  const elapsed = Math.max(0, now - decayAnchor(memory, lastReinforcedAt));
  if (!Number.isFinite(halfLife) || elapsed === 0) return 1;
  const rate = 1 - clamp(memory.confidence, 0, 1);
  return 2 ** (-(elapsed / halfLife) * rate);
}

/**
 * The weight of a memory of `kind`, at default importance and no intensity, on each day
 * 0..days after it was last reinforced: the curves the viewer draws.
 */
export function decayOverDays(kind: MemoryRecord["kind"], confidence: number, days: number, halfLives: HalfLives): number[] {
  const memory: DecayInputs = { kind, pinned: false, importance: 3, intensity: 0, confidence, createdAt: 0 };
  return Array.from({ length: days + 1 }, (_, day) => decayWeight(memory, null, day * DAY_MS, halfLives));
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
