import { decayWeight } from "../lifecycle/decay.js";
import type { HalfLives } from "../lifecycle/half-lives.js";
import { lifecycleScore } from "../lifecycle/recall-score.js";
import type { MemoryRecord } from "../memory/memory.js";

/** How many memories MEMORY.md lists: a glance at session start, not a second index. */
export const TOP_MEMORY_COUNT = 5;

/**
 * The memories that matter most right now, without a query: active ones only (never staged,
 * superseded or archived), ranked by the lifecycle score recall weighs every hit by (decay with
 * the kind's half-life from the last reinforcement x frequency x confidence). Ties go to the
 * more important, then the newer memory, so the order is stable between runs.
 */
export function topMemories(
  memories: readonly MemoryRecord[],
  lastReinforcements: ReadonlyMap<string, number>,
  now: number,
  halfLives: HalfLives,
  count = TOP_MEMORY_COUNT,
): MemoryRecord[] {
  return memories
    .filter((memory) => memory.status === "active")
    .map((memory) => ({
      memory,
      score: lifecycleScore({
        decayWeight: decayWeight(memory, lastReinforcements.get(memory.id) ?? null, now, halfLives),
        accessCount: memory.accessCount,
        confidence: memory.confidence,
      }),
    }))
    .sort((a, b) => b.score - a.score || b.memory.importance - a.memory.importance || compareIds(b.memory.id, a.memory.id))
    .slice(0, count)
    .map((item) => item.memory);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
