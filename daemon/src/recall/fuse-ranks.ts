/**
 * Weighted reciprocal rank fusion. Each source contributes weight / (k + rank) for every
 * candidate it ranked, scaled by the candidate's strength where the source calibrates it. A
 * source with a small weight mostly reorders what the strong source found: with k = 5,
 * keyword weight 1 and vector weight 0.3, a vector-only first place scores 0.3/6 = 0.05 while
 * a full-strength keyword-only fifth place scores 1/10.
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
  /**
   * The source's own scores (same order as ids), where it has them: candidates with equal
   * scores share a rank (the best one's), so that a tie stays a tie after fusion instead of
   * becoming a gap between neighbouring ranks.
   */
  scores?: readonly number[];
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
  // Ties (equal scores) fall back to id order, so results never depend on Map iteration.
  return [...fuseInto(new Map(), sources, k).values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Adds the sources' contributions to `fused`, by id, and returns it: fusing some sources and
 * then the others scores every candidate as fusing them all at once does.
 */
export function fuseInto(fused: Map<string, FusedCandidate>, sources: readonly RankedSource[], k = RRF_K): Map<string, FusedCandidate> {
  for (const source of sources) {
    if (source.weight <= 0) continue;
    let rank = 0;
    source.ids.forEach((id, index) => {
      if (index === 0 || source.scores === undefined || source.scores[index] !== source.scores[index - 1]) rank = index + 1;
      const entry = fused.get(id) ?? { id, score: 0, ranks: {} };
      if (entry.ranks[source.name] !== undefined) return;
      entry.ranks[source.name] = rank;
      entry.score += (source.weight * (source.strengths?.[index] ?? 1)) / (k + rank);
      fused.set(id, entry);
    });
  }
  return fused;
}
