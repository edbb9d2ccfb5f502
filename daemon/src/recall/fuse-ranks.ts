/**
 * Weighted reciprocal rank fusion. Each source contributes weight / (k + rank) for every
 * candidate it ranked. A source with a small weight can reorder what the strong source
 * found but cannot push in a candidate of its own ahead of the strong source's top hits:
 * with k = 60, keyword weight 1 and vector weight 0.5, a vector-only first place scores
 * 0.5/61 while a keyword-only tenth place scores 1/70.
 */

export interface RankedSource {
  name: string;
  weight: number;
  /** Candidate ids, best first. */
  ids: readonly string[];
  /**
   * Calibration per candidate (same order as ids, 0..1): how strong the match is compared with
   * the best match of its kind, so that a weak first place does not count as a strong one.
   */
  strengths?: readonly number[];
}

export interface FusedCandidate {
  id: string;
  /** The fused relevance. */
  score: number;
  /** 1-based rank in each source that ranked it. */
  ranks: Record<string, number>;
}

export const RRF_K = 60;

export function fuseRanks(sources: readonly RankedSource[], k = RRF_K): FusedCandidate[] {
  const fused = new Map<string, FusedCandidate>();
  for (const source of sources) {
    if (source.weight <= 0) continue;
    source.ids.forEach((id, index) => {
      const entry = fused.get(id) ?? { id, score: 0, ranks: {} };
      if (entry.ranks[source.name] !== undefined) return;
      entry.ranks[source.name] = index + 1;
      entry.score += (source.weight * (source.strengths?.[index] ?? 1)) / (k + index + 1);
      fused.set(id, entry);
    });
  }
  // Ties (equal scores) fall back to id order, so results never depend on Map iteration.
  return [...fused.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
