import { decayWeight } from "../lifecycle/decay.js";
import { DAY_MS, type HalfLives } from "../lifecycle/half-lives.js";
import { confidenceBoost, frequencyBoost } from "../lifecycle/recall-score.js";
import { MEMORY_KINDS, GLOBAL_PROJECT, type MemoryRecord } from "../memory/memory.js";
import { type MemoryFilter, matchesFilter } from "../memory/memory-filter.js";
import type { GraphHit, KeywordScope, MemoryStore, RankedRow, RankingFacets } from "../store/store.js";
import { queryEntityKeys } from "./entities.js";
import { type FusedCandidate, fuseInto } from "./fuse-ranks.js";
import { temporalBoost, temporalWindow } from "./temporal.js";
import { vectorsArrived, waitForVectors } from "./vector-wait.js";

/**
 * Finds candidates by meaning among the memories `accept` lets through, by seq
 * (EmbeddingRuntime.nearest); null when embeddings are off. Rejects with UnavailableError when
 * the query cannot be embedded; once `abandoned` is aborted, answers nothing without searching.
 */
export interface VectorCandidates {
  nearest(
    query: string,
    accept: (memorySeq: number) => boolean,
    limit: number,
    embedded?: (ms: number) => void,
    abandoned?: AbortSignal,
  ): Promise<{ seq: number; score: number }[]>;
}

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
 * How much each source counts, set by measurement on the dev set (npm run bench:recall), not
 * per query. Keyword search is the strong source; vectors and the graph mostly reorder what it
 * finds. Other projects' results count by how their best keyword match compares with the
 * current project's (see widenWeight): below strong local answers, above weak ones.
 */
export interface FusionTuning {
  keyword: number;
  vector: number;
  graph: number;
  /**
   * The factor for candidates from projects other than the current one and global, when their
   * best keyword match is as strong as the local one; it scales with that ratio (see widenWeight).
   */
  otherProjects: number;
  /** The most the ratio may raise it: another project's answer may outrank a weak local one. */
  widenCap: number;
  /** For a time-scoped query, the memories created in the time it names are a source of their own. */
  time: number;
  /** The k of reciprocal rank fusion: smaller makes rank differences count more. */
  rrfK: number;
}

/**
 * Measured on the dev set with the offline model (recall@5: keyword alone 0.750, vector alone
 * 0.634, these settings 0.880; the textbook k = 60 with equal weights gave 0.733, below keyword
 * alone; a fixed weight for other projects 0.808, the time source off 0.853). Neighbouring
 * values (otherProjects 0.7-1, widenCap 1-1.5, time 0.3-1) all land within 0.02 of it. Round
 * values were kept; none is fitted to a single query.
 */
export const DEFAULT_TUNING: FusionTuning = {
  keyword: 1,
  vector: 0.3,
  graph: 0.5,
  otherProjects: 1,
  widenCap: 1.25,
  time: 0.5,
  rrfK: 5,
};

/** A candidate from any source: what ranking needs, and the memory itself when the source read it. */
interface Hit {
  facets: RankingFacets;
  score: number;
  seq?: number;
  memory?: MemoryRecord;
}

/** What a candidate's lifecycle weighs its relevance by. */
interface Weights {
  decay: number;
  frequency: number;
  confidence: number;
  timing: number;
}

/** The keyword, graph and time sources fused and weighed, and what explains their candidates. */
interface LexicalRanking {
  fused: Map<string, FusedCandidate>;
  /** Every candidate's hit by id, vector hits added once they arrive. */
  hits: Map<string, Hit>;
  weights: Map<string, Weights>;
  keywordScore: Map<string, number>;
  graphPath: Map<string, string[]>;
}

/** Candidates taken from each source before fusion. */
const PREFETCH = 50;
/** Memories read from the head of each keyword and graph list while the query embeds, at most. */
const EARLY_READS_PER_LIST = 10;
/** Vectors rerank rather than lead (see DEFAULT_TUNING), so fewer of their candidates are needed. */
const VECTOR_PREFETCH = 30;
/**
 * One half-life for every kind when ranking, until per-kind decay drives forgetting: old
 * memories rank lower but stay findable.
 */
const RANKING_HALF_LIFE_MS = 180 * DAY_MS;
const RANKING_HALF_LIVES = Object.fromEntries(MEMORY_KINDS.map((kind) => [kind, RANKING_HALF_LIFE_MS])) as unknown as HalfLives;

/**
 * Hybrid recall: keyword (BM25), vector and entity-graph candidates, fused by weighted
 * reciprocal rank, then weighed by each memory's lifecycle (decay x frequency x confidence)
 * and, for a time-scoped query, by how well its age fits the time named. An embedder that is
 * down or slow costs the vector candidates, not the answer: keywords and the graph still
 * serve, and the result says what was left out.
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
  const local = input.project === undefined ? undefined : input.excludeGlobal ? [input.project] : [input.project, GLOBAL_PROJECT];
  const base = { ...input.filter };

  // One vector search over every project serves both lists: the local one is its subset, so the
  // query is embedded once and exact vectors are read once.
  let duringSearch: ((seq: number) => boolean) | undefined;
  const admitted = (seq: number) => {
    // Taken when the vector search runs, after the query's embedding: the store as it is then.
    duringSearch ??= store.admits(base);
    return duringSearch(seq);
  };
  const abandon = new AbortController();
  const requested = performance.now();
  // The wait is heard once: from the embedder when the vector arrives, or below when the
  // search goes on without it (a vector that comes later is not waited for).
  let heard = false;
  const embedded = (ms: number) => {
    if (!heard) input.embedded?.(ms);
    heard = true;
  };
  const noTime = input.vectorWaitMs !== undefined && input.vectorWaitMs <= 0;
  const arrived = vectors && !noTime ? vectorsArrived(vectors.nearest(text, admitted, VECTOR_PREFETCH, embedded, abandon.signal)) : undefined;
  let answered = false;
  if (arrived) {
    // Awaited below; until then a failure must not count as unhandled.
    arrived.then(() => (answered = true), () => (answered = true));
    // The query embeds elsewhere (the local model's worker, Ollama, OpenAI), in more time than
    // keyword and graph search take: one turn of the event loop sends the request, and they
    // run while it is out.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const keywordScopes = local ? [{ filter: { ...base, projects: local }, limit: PREFETCH }, { filter: base, limit: PREFETCH }] : [{ filter: base, limit: PREFETCH }];
  const lexicalStarted = performance.now();
  const keywordFound = store.searchKeywordScopes(text, keywordScopes);
  const graphFound = store.searchGraph({
    keys: queryEntityKeys(text),
    projects: local,
    statuses: base.statuses,
    limit: PREFETCH,
    hopFrom: 3,
    hopEntities: 5,
    hopDiscount: 0.3,
  });
  // The same count after the wait means that nothing was written meanwhile.
  const changesBefore = arrived ? store.changeCount() : undefined;
  // Other projects' candidates count on their own, not again for what the local lists hold.
  const foreign = <T extends Hit>(hits: T[]) => (local ? hits.filter((h) => !local.includes(h.facets.project)) : []);
  const weigh = (facets: RankingFacets): Weights => ({
    decay: decayWeight(facets, null, input.now, RANKING_HALF_LIVES),
    frequency: frequencyBoost(facets.accessCount),
    confidence: confidenceBoost(facets.confidence),
    timing: window ? temporalBoost(facets.createdAt, window) : 1,
  });

  /** Fuses and weighs the keyword, graph and time sources: all of ranking that vectors do not change. */
  const rankLexical = ([keywordLocal = [], keywordWide = []]: RankedRow[][], graph: GraphHit[]): LexicalRanking => {
    const graphHits = graph.filter((hit) => matchesKinds(hit.facets, base.kinds));
    const keywordForeign = foreign(keywordWide);
    const widen = tuning.otherProjects * widenWeight(keywordLocal[0]?.score ?? 0, keywordForeign[0]?.score ?? 0, tuning.widenCap);
    const inWindow: Hit[] = (
      window
        ? store.list({ ...base, projects: local, createdAfter: window.from - window.tolerance, createdBefore: window.to + window.tolerance + 1 }, { limit: PREFETCH })
        : []
    ).map((memory) => ({ facets: memory, memory, score: 0 }));
    // BM25 scores of one query are comparable across lists: a keyword match counts by its score
    // relative to the best one, so a first place won with one common word counts for little.
    const bestKeyword = Math.max(keywordLocal[0]?.score ?? 0, keywordForeign[0]?.score ?? 0);
    const strengths = (hits: Hit[]) => hits.map((h) => (bestKeyword > 0 ? Math.min(1, Math.max(0, h.score) / bestKeyword) : 1));
    const fused = fuseInto(
      new Map(),
      [
        { name: "keyword", weight: tuning.keyword, ids: ids(keywordLocal), strengths: strengths(keywordLocal) },
        { name: "keyword-wide", weight: tuning.keyword * widen, ids: ids(keywordForeign), strengths: strengths(keywordForeign) },
        { name: "graph", weight: tuning.graph, ids: ids(graphHits) },
        // Newest first: within the window named, recency is the only order there is without the text.
        { name: "time", weight: tuning.time, ids: ids(inWindow) },
      ],
      tuning.rrfK,
    );
    const hits = new Map<string, Hit>();
    for (const hit of [...keywordLocal, ...keywordWide, ...graph, ...inWindow]) addHit(hits, hit);
    const weights = new Map([...fused.keys()].map((id) => [id, weigh((hits.get(id) as Hit).facets)]));
    return { fused, hits, weights, keywordScore: scoreMap([...keywordWide, ...keywordLocal]), graphPath: new Map(graphHits.map((hit) => [hit.facets.id, hit.path])) };
  };

  // While the query still embeds: the winners come mostly from the heads of these lists (95% of
  // them from the first `limit` of each, at 100k memories, limit 10), so their memories are read,
  // a bounded number so that the reads stay well inside the wait; and these lists are fused and
  // weighed, so that little is left to do once the vectors arrive.
  const waiting = arrived !== undefined && !answered;
  const early = waiting ? readHeads(store, [...keywordFound, graphFound], Math.min(input.limit, EARLY_READS_PER_LIST)) : undefined;
  const lexicalEarly = waiting ? rankLexical(keywordFound, graphFound) : undefined;
  if (arrived) input.overlapped?.(performance.now() - lexicalStarted);
  const { hits: nearest, skipped } = arrived
    ? await waitForVectors(arrived, input.vectorWaitMs, performance.now() - requested, abandon)
    : { hits: [], skipped: vectors && noTime ? "the call's deadline left no time to embed the query" : "" };
  if (skipped !== "") embedded(performance.now() - requested);
  const unchanged = changesBefore === undefined || store.changeCount() === changesBefore;
  const readBefore = unchanged && early !== undefined ? early : new Map<number, MemoryRecord>();
  // Everything ranking reads is taken from here on, up to reading the winners: nothing can write
  // in between. A write while the query embedded may have changed or removed a keyword or graph
  // row, so then those are looked up again, filtered as their scopes were, and fused anew.
  const facetsOf = store.rankingFacets();
  const recheck = <T extends RankedRow>(hits: T[], filter: MemoryFilter) => (unchanged ? hits : current(hits, facetsOf, filter));
  const lexical =
    unchanged && lexicalEarly !== undefined
      ? lexicalEarly
      : rankLexical(
          keywordFound.map((hits, i) => recheck(hits, (keywordScopes[i] as KeywordScope).filter)),
          recheck(graphFound, { kinds: [], statuses: base.statuses, projects: local }),
        );
  const vectorWide: Hit[] = current(nearest, facetsOf, base);
  const vectorLocal = local ? vectorWide.filter((hit) => local.includes(hit.facets.project)) : vectorWide;
  for (const hit of vectorWide) addHit(lexical.hits, hit);
  const fused = fuseInto(
    lexical.fused,
    [
      { name: "vector", weight: tuning.vector, ids: ids(vectorLocal) },
      { name: "vector-wide", weight: tuning.vector * tuning.otherProjects, ids: ids(foreign(vectorWide)) },
    ],
    tuning.rrfK,
  );

  const ranked = [...fused.values()].map((candidate) => {
    const hit = lexical.hits.get(candidate.id) as Hit;
    const weights = lexical.weights.get(candidate.id) ?? weigh(hit.facets);
    const { decay, frequency, confidence, timing } = weights;
    return { hit, candidate, weights, score: candidate.score * decay * frequency * confidence * timing };
  });
  const winners = ranked.sort((a, b) => b.score - a.score || (a.hit.facets.id < b.hit.facets.id ? -1 : 1)).slice(0, input.limit);
  const unread = winners.flatMap(({ hit }) => (hit.memory === undefined && hit.seq !== undefined && !readBefore.has(hit.seq) ? [hit.seq] : []));
  const read = store.memoriesBySeq(unread);
  // Explained for the winners alone.
  const vectorScore = scoreMap(vectorWide);
  const results = winners.map(({ hit, candidate, weights: { decay, frequency, confidence, timing }, score }) => ({
    memory: hit.memory ?? readBefore.get(hit.seq as number) ?? (read.get(hit.seq as number) as MemoryRecord),
    score,
    explanation: {
      keywordRank: candidate.ranks.keyword ?? candidate.ranks["keyword-wide"] ?? 0,
      keywordScore: lexical.keywordScore.get(hit.facets.id) ?? 0,
      vectorRank: candidate.ranks.vector ?? candidate.ranks["vector-wide"] ?? 0,
      vectorSimilarity: vectorScore.get(hit.facets.id) ?? 0,
      graphPath: lexical.graphPath.get(hit.facets.id)?.join(", ") ?? "",
      relevance: candidate.score * timing,
      decay,
      frequency,
      confidence,
    },
  }));
  return { results, vectorsSkipped: skipped };
}

/**
 * How far to widen to other projects: the ratio of their best keyword score to the current
 * project's (BM25 scores of one query are comparable), capped. Weak local results let another
 * project's strong answer through; strong local ones keep it below them.
 */
export function widenWeight(bestLocal: number, bestForeign: number, cap: number): number {
  if (bestLocal <= 0) return cap;
  return Math.min(cap, bestForeign / bestLocal);
}

/**
 * The hits whose memories still match the filter, with their facets as they are now. The index
 * replaces a row's facets object whenever what it holds changes, so a hit that carries the
 * same object has passed already.
 */
function current<T extends { seq: number; facets?: RankingFacets }>(
  hits: readonly T[],
  facetsOf: (seq: number) => RankingFacets | undefined,
  filter: MemoryFilter,
): (T & { facets: RankingFacets })[] {
  const kept: (T & { facets: RankingFacets })[] = [];
  for (const hit of hits) {
    const facets = facetsOf(hit.seq);
    if (facets === hit.facets) kept.push(hit as T & { facets: RankingFacets });
    else if (facets !== undefined && matchesFilter(facets, filter)) kept.push({ ...hit, facets });
  }
  return kept;
}

/** The memories of the first `head` rows of each list. */
function readHeads(store: MemoryStore, lists: readonly (readonly { seq: number }[])[], head: number): Map<number, MemoryRecord> {
  return store.memoriesBySeq([...new Set(lists.flatMap((list) => list.slice(0, head).map((hit) => hit.seq)))]);
}

/** Records a candidate's hit, or completes the one recorded with what this one read (its memory, its seq). */
function addHit(hits: Map<string, Hit>, hit: Hit): void {
  const known = hits.get(hit.facets.id);
  hits.set(hit.facets.id, known ? { ...known, ...hit } : hit);
}

function ids(hits: readonly Hit[]): string[] {
  return hits.map((h) => h.facets.id);
}

function scoreMap(hits: Hit[]): Map<string, number> {
  return new Map(hits.map((hit) => [hit.facets.id, hit.score]));
}

function matchesKinds(facets: RankingFacets, kinds: readonly string[]): boolean {
  return kinds.length === 0 || kinds.includes(facets.kind);
}
