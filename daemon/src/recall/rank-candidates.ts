import { decayWeight } from "../lifecycle/decay.js";
import { DAY_MS, type HalfLives } from "../lifecycle/half-lives.js";
import { confidenceBoost, frequencyBoost } from "../lifecycle/recall-score.js";
import { MEMORY_KINDS } from "../memory/memory.js";
import type { RankingFacets } from "../store/store.js";
import { type FusedCandidate, fuseInto, type RankedSource } from "./fuse-ranks.js";
import type { Candidate, CandidateLists } from "./gather-candidates.js";
import { temporalBoost, type TemporalWindow } from "./temporal.js";

/**
 * How much each source counts. Each source also calibrates its own candidates for the query at
 * hand (see rankCandidates), so these weights say how far a source is trusted at full strength.
 */
export interface FusionTuning {
  keyword: number;
  /** The query with the thesaurus's synonyms (see expandQuery). */
  expanded: number;
  /** The query with the general lexicon's (WordNet's) synonyms. */
  general: number;
  vector: number;
  graph: number;
  /** For a time-scoped query, the memories created in the time it names are a source of their own. */
  time: number;
  /** The k of reciprocal rank fusion: smaller makes rank differences count more. */
  rrfK: number;
  /** What another project's keyword match counts for, as a share of the same match in the current project. */
  foreignShare: number;
  /** What a memory takes of its best session neighbour's relevance (see withContext). */
  context: number;
  /** A graph match counts fully from this score up (one entity no other memory names scores 1). */
  graphFullAt: number;
}

/**
 * Measured with npm run bench:recall on bench/data/eval-dev and ../shared/eval/locomo-dev side
 * by side (docs/benchmarks.md has the figures). Round values on a plateau, none fitted
 * to a query: neighbouring values of each land within 0.01 on both sets.
 */
export const DEFAULT_TUNING: FusionTuning = {
  keyword: 1,
  expanded: 0.8,
  general: 0.3,
  vector: 0.3,
  graph: 0.5,
  time: 0.5,
  rrfK: 5,
  foreignShare: 0.7,
  context: 0.5,
  graphFullAt: 1,
};

/**
 * Kinds of memory that hold beyond the project they were saved in: what is true of a shared
 * tool or service, what was decided, how the user wants things done, how something is done.
 * What happened in a session (an episode, a trace, a conversation's context, a task, an idea)
 * belongs to its project.
 */
const TRAVELLING_KINDS: ReadonlySet<string> = new Set(["fact", "decision", "preference", "procedure", "rule"]);

/** What a candidate's lifecycle weighs its relevance by. */
export interface LifecycleWeights {
  decay: number;
  frequency: number;
  confidence: number;
  /** For a time-scoped query, how well its creation time fits the time named (see temporalBoost); 1 otherwise. */
  timing: number;
}

/** A candidate as ranked: its relevance from the sources, what its neighbours added, and its score after the lifecycle. */
export interface RankedCandidate {
  candidate: Candidate;
  /** The fused relevance and the candidate's 1-based rank in each source that found it. */
  fused: FusedCandidate;
  /** What its session neighbours added to the fused relevance. */
  context: number;
  weights: LifecycleWeights;
  score: number;
}

/**
 * One half-life for every kind when ranking, until per-kind decay drives forgetting: old
 * memories rank lower but stay findable.
 */
const RANKING_HALF_LIFE_MS = 180 * DAY_MS;
const RANKING_HALF_LIVES = Object.fromEntries(MEMORY_KINDS.map((kind) => [kind, RANKING_HALF_LIFE_MS])) as unknown as HalfLives;

/**
 * Ranks what the sources found, best first, in one pass: each source's list is calibrated for
 * this query, the lists are fused by weighted reciprocal rank, each memory takes part of its
 * session neighbours' relevance, and the lifecycle weighs the result. Pure: the lists, `now`
 * and the time window decide.
 *
 * Calibration is what keeps a weak source from outvoting a strong one:
 * - a keyword match counts by its BM25 score relative to the best one, so a first place won
 *   with one common word counts for little;
 * - another project's memory takes part only with evidence the current project lacks: it is
 *   knowledge that travels (a fact, a decision, a preference, a procedure or a rule; see
 *   TRAVELLING_KINDS), or its project is one the query points to (a word of the query that no
 *   local memory uses is used mostly there; see pointedProjects). Then its keyword match joins
 *   the local list at `foreignShare` of its score, so it enters only where it beats the local
 *   matches by that margin, and other projects' vectors count only when their best keyword
 *   match does;
 * - a graph match counts by how specific its entities are (an entity on hundreds of memories,
 *   a person in a long conversation, links nothing in particular);
 * - vectors count little on their own and mostly reorder what the lexical sources found.
 */
export function rankCandidates(lists: CandidateLists, context: { now: number; window: TemporalWindow | null }, tuning: FusionTuning = DEFAULT_TUNING): RankedCandidate[] {
  const travels = (c: Candidate) => TRAVELLING_KINDS.has(c.facets.kind) || lists.pointed.has(c.facets.project);
  const keywordForeign = lists.keywordForeign.filter(travels);
  const keyword = withForeign(lists.keyword, keywordForeign, tuning.foreignShare);
  const expanded = withForeign(lists.expanded, lists.expandedForeign.filter(travels), tuning.foreignShare);
  const general = withForeign(lists.general, lists.generalForeign.filter(travels), tuning.foreignShare);
  const vectorForeign = lists.vectorForeign.filter(travels);
  const foreignLeads = (keywordForeign[0]?.score ?? 0) * tuning.foreignShare > (lists.keyword[0]?.score ?? 0);
  const sources: RankedSource[] = [
    { name: "keyword", weight: tuning.keyword, ids: ids(keyword), strengths: relativeToBest(keyword), scores: scores(keyword) },
    { name: "expanded", weight: tuning.expanded, ids: ids(expanded), strengths: relativeToBest(expanded), scores: scores(expanded) },
    { name: "general", weight: tuning.general, ids: ids(general), strengths: relativeToBest(general), scores: scores(general) },
    { name: "vector", weight: tuning.vector, ids: ids(lists.vector), scores: scores(lists.vector) },
    { name: "vector-wide", weight: foreignLeads ? tuning.vector : 0, ids: ids(vectorForeign), scores: scores(vectorForeign) },
    {
      name: "graph", weight: tuning.graph, ids: ids(lists.graph), scores: scores(lists.graph),
      strengths: lists.graph.map((c) => Math.min(1, c.score / tuning.graphFullAt)),
    },
    // Newest first: within the window named, recency is the only order there is without the text.
    { name: "time", weight: tuning.time, ids: ids(lists.inWindow) },
  ];
  const byId = new Map<string, Candidate>();
  for (const list of [keyword, expanded, general, lists.vector, vectorForeign, lists.graph, lists.inWindow, ...lists.neighbours.values()]) {
    for (const c of list) remember(byId, c);
  }
  const fused = fuseInto(new Map(), sources, tuning.rrfK);
  const relevance = withContext(
    [...fused.values()].map((f) => ({ seq: (byId.get(f.id) as Candidate).seq, score: f.score })),
    lists.neighbours,
    tuning.context,
  );
  const seqToId = new Map([...byId.values()].map((c) => [c.seq, c.facets.id]));
  const ranked = [...relevance].map(([seq, lifted]): RankedCandidate => {
    const id = seqToId.get(seq) as string;
    const candidate = byId.get(id) as Candidate;
    const f = fused.get(id) ?? { id, score: 0, ranks: {} };
    const weights = lifecycleWeights(candidate.facets, context.now, context.window);
    const score = (f.score + lifted) * weights.decay * weights.frequency * weights.confidence * weights.timing;
    return { candidate, fused: f, context: lifted, weights, score };
  });
  // Ties (equal scores) fall back to id order, so results never depend on Map iteration.
  return ranked.sort((a, b) => b.score - a.score || (a.fused.id < b.fused.id ? -1 : 1));
}

/**
 * What each memory takes from its session neighbours: `share` of the best relevance among the
 * memories just before and after it (see CandidateLists.neighbours), by seq, for every scored
 * memory and every neighbour of one (0 where nothing is added). A reply that never repeats the
 * question's words ("They were awestruck") is found through the question it answers.
 */
export function withContext(scored: readonly { seq: number; score: number }[], neighbours: ReadonlyMap<number, readonly { seq: number }[]>, share: number): Map<number, number> {
  const own = new Map(scored.map((c) => [c.seq, c.score]));
  const lift = new Map<number, number>(scored.map((c) => [c.seq, 0]));
  const give = (to: number, from: number) => {
    const score = (own.get(from) ?? 0) * share;
    if (score > (lift.get(to) ?? 0)) lift.set(to, score);
  };
  if (share > 0) {
    // Neighbourhood is symmetric: each pair the store reported lifts both ways.
    for (const [seq, around] of neighbours) {
      for (const n of around) {
        give(n.seq, seq);
        give(seq, n.seq);
      }
    }
  }
  return lift;
}

/** What the lifecycle weighs a candidate's relevance by. */
function lifecycleWeights(facets: RankingFacets, now: number, window: TemporalWindow | null): LifecycleWeights {
  return {
    decay: decayWeight(facets, null, now, RANKING_HALF_LIVES),
    frequency: frequencyBoost(facets.accessCount),
    confidence: confidenceBoost(facets.confidence),
    timing: window ? temporalBoost(facets.createdAt, window) : 1,
  };
}

/** One list of local and foreign candidates by score, the foreign ones' taken at `share`. */
function withForeign(local: readonly Candidate[], foreign: readonly Candidate[], share: number): Candidate[] {
  return [...local, ...foreign.map((c) => ({ ...c, score: c.score * share }))].sort((a, b) => b.score - a.score || a.seq - b.seq);
}

/** Each candidate's score as a share of the list's best (all count fully when none scores above 0). */
function relativeToBest(list: readonly Candidate[]): number[] {
  const best = list[0]?.score ?? 0;
  return list.map((c) => (best > 0 ? Math.min(1, Math.max(0, c.score) / best) : 1));
}

/** Keeps one candidate per memory, preferring the one whose memory was read. */
function remember(byId: Map<string, Candidate>, c: Candidate): void {
  const known = byId.get(c.facets.id);
  if (!known) byId.set(c.facets.id, c);
  else if (known.memory === undefined && c.memory !== undefined) byId.set(c.facets.id, { ...known, memory: c.memory });
}

function ids(hits: readonly Candidate[]): string[] {
  return hits.map((h) => h.facets.id);
}

function scores(hits: readonly Candidate[]): number[] {
  return hits.map((h) => h.score);
}
