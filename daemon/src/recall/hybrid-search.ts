import { localProjects, type MemoryRecord } from "../memory/memory.js";
import type { MemoryFilter } from "../memory/memory-filter.js";
import type { MemoryStore } from "../store/store.js";
import { gatherCandidates, type VectorCandidates } from "./gather-candidates.js";
import { DEFAULT_TUNING, type FusionTuning, rankCandidates } from "./rank-candidates.js";
import { temporalWindow } from "./temporal.js";

export type { VectorCandidates } from "./gather-candidates.js";

export interface HybridSearchInput {
  query: string;
  /** The project the caller works in; undefined searches every project alike. */
  project: string | undefined;
  excludeGlobal: boolean;
  filter: Omit<MemoryFilter, "projects">;
  limit: number;
  now: number;
  /** Hears how long the query's embedding was waited for: from its request until its vector was in hand. */
  embedded?: (ms: number) => void;
  /** Hears how long keyword and graph search ran while the query embedded (with embeddings on). */
  overlapped?: (ms: number) => void;
  /**
   * How long to wait for the query's embedding; past it the search goes on without vectors, as
   * it does when the embedder fails. Undefined waits as long as the embedder takes.
   */
  vectorWaitMs?: number;
}

export interface Explanation {
  keywordRank: number;
  keywordScore: number;
  vectorRank: number;
  vectorSimilarity: number;
  graphPath: string;
  relevance: number;
  decay: number;
  frequency: number;
  confidence: number;
  context: number;
}

export interface HybridResult {
  memory: MemoryRecord;
  score: number;
  explanation: Explanation;
}

export interface HybridSearchResult {
  results: HybridResult[];
  /**
   * Why vector search took no part (the embedder failed, or did not answer in time): the
   * results then come from keywords and the entity graph alone. Empty when it took part, or
   * when embeddings are off.
   */
  vectorsSkipped: string;
}

/**
 * Hybrid recall in three steps: gather every source's candidates (keyword, vector, entity
 * graph, time; gatherCandidates overlaps the lexical ones with the query's embedding), rank
 * them (rankCandidates, a pure function of the lists and `now`), and read the winners. An
 * embedder that is down or slow costs the vector candidates, not the answer.
 */
export async function hybridSearch(
  store: MemoryStore,
  vectors: VectorCandidates | null,
  input: HybridSearchInput,
  tuning: FusionTuning = DEFAULT_TUNING,
): Promise<HybridSearchResult> {
  const window = temporalWindow(input.query, input.now);
  // The time phrase says when, not what: leave it out of what is matched.
  const text = window ? input.query.replace(window.phrase, " ").trim() || input.query : input.query;
  const local = localProjects(input.project, input.excludeGlobal);
  const { lists, read: readEarly, vectorsSkipped } = await gatherCandidates(store, vectors, {
    text,
    window,
    local,
    filter: input.filter,
    limit: input.limit,
    vectorWaitMs: input.vectorWaitMs,
    embedded: input.embedded,
    overlapped: input.overlapped,
  });
  const winners = rankCandidates(lists, { now: input.now, window }, tuning).slice(0, input.limit);
  const unread = winners.flatMap(({ candidate: c }) => (c.memory === undefined && !readEarly.has(c.seq) ? [c.seq] : []));
  const read = store.memoriesBySeq(unread);
  // Explained for the winners alone.
  const keywordScore = new Map([...lists.keyword, ...lists.keywordForeign].map((c) => [c.seq, c.score]));
  const vectorScore = new Map([...lists.vector, ...lists.vectorForeign].map((c) => [c.seq, c.score]));
  const graphPath = new Map(lists.graph.map((c) => [c.seq, c.path.join(", ")]));
  const results = winners.map(({ candidate: c, fused, context, weights: { decay, frequency, confidence, timing }, score }) => ({
    memory: c.memory ?? readEarly.get(c.seq) ?? (read.get(c.seq) as MemoryRecord),
    score,
    explanation: {
      keywordRank: fused.ranks.keyword ?? 0,
      keywordScore: keywordScore.get(c.seq) ?? 0,
      vectorRank: fused.ranks.vector ?? fused.ranks["vector-wide"] ?? 0,
      vectorSimilarity: vectorScore.get(c.seq) ?? 0,
      graphPath: graphPath.get(c.seq) ?? "",
      relevance: (fused.score + context) * timing,
      decay,
      frequency,
      confidence,
      context,
    },
  }));
  return { results, vectorsSkipped };
}
