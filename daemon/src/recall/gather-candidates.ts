import type { MemoryRecord } from "../memory/memory.js";
import { type MemoryFilter, matchesFilter } from "../memory/memory-filter.js";
import type { AbsentPhrase, KeywordScope, MemoryStore, RankedRow, RankingFacets } from "../store/store.js";
import { queryEntityKeys } from "./entities.js";
import { expandQuery } from "./query-expansion.js";
import type { TemporalWindow } from "./temporal.js";
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

/** A memory one source found: what ranking reads of it, its score there, and the memory itself where it was read. */
export interface Candidate {
  seq: number;
  facets: RankingFacets;
  /** Higher is better, on the source's own scale (BM25, cosine, graph weight); 0 where the source has none. */
  score: number;
  memory?: MemoryRecord;
}

export interface GraphCandidate extends Candidate {
  /** The entity keys that led here. */
  path: string[];
}

/**
 * Everything a search found, source by source, best first. "Local" is the caller's project and
 * global; without a project every memory is local and the foreign lists are empty.
 */
export interface CandidateLists {
  keyword: Candidate[];
  keywordForeign: Candidate[];
  /** Keyword candidates for the query with its synonyms (see expandQuery); empty when the thesaurus adds nothing. */
  expanded: Candidate[];
  expandedForeign: Candidate[];
  /** Keyword candidates for the query with the general lexicon's synonyms (see expandQuery); empty when it adds nothing. */
  general: Candidate[];
  generalForeign: Candidate[];
  /**
   * The other projects the query points to: each holds most of the memories that use a word of
   * the query which no local memory uses (see pointedProjects). Empty without a project.
   */
  pointed: ReadonlySet<string>;
  vector: Candidate[];
  vectorForeign: Candidate[];
  graph: GraphCandidate[];
  /** For a time-scoped query: local memories created within the window, newest first. */
  inWindow: Candidate[];
  /** The session neighbours (see MemorySearch.sessionNeighbours) of the heads of the local lists, by seq. */
  neighbours: ReadonlyMap<number, readonly Candidate[]>;
}

export interface GatherRequest {
  /** The query as searched: its time phrase, if any, taken out. */
  text: string;
  window: TemporalWindow | null;
  /** The projects that count as local; undefined searches every project alike. */
  local: readonly string[] | undefined;
  filter: Omit<MemoryFilter, "projects">;
  /** How many results the caller wants: the heads of the lexical lists are read while the query embeds. */
  limit: number;
  /** See HybridSearchInput. */
  vectorWaitMs?: number;
  embedded?: (ms: number) => void;
  overlapped?: (ms: number) => void;
}

export interface Gathered {
  lists: CandidateLists;
  /** Memories read while the query embedded, by seq, still as stored. */
  read: Map<number, MemoryRecord>;
  /** Why vectors took no part; empty when they did, or when embeddings are off. */
  vectorsSkipped: string;
}

/** Candidates taken from the keyword, graph and time sources. */
const PREFETCH = 50;
/** Candidates taken from vector search: each source keeps the same depth, so that ranking weighs them alike. */
const VECTOR_PREFETCH = 50;
/** Memories read from the head of each keyword and graph list while the query embeds, at most. */
const EARLY_READS_PER_LIST = 10;
/** The best of each local list whose session neighbours are looked up: where the winners come from. */
const NEIGHBOURS_OF = 30;

/**
 * Gathers every source's candidates. The query embeds elsewhere (the local model's worker,
 * Ollama, OpenAI) in more time than keyword and graph search take, so those run while it is
 * out, and the heads of their lists are read then, since most winners come from there. An
 * embedder that fails or misses its wait costs the vector lists, not the search. A write while
 * the query embedded may have changed or removed a keyword or graph candidate: then those are
 * looked up again, filtered as their scopes were.
 */
export async function gatherCandidates(store: MemoryStore, vectors: VectorCandidates | null, request: GatherRequest): Promise<Gathered> {
  const { text, local, window } = request;
  const base = { ...request.filter };
  const localFilter: MemoryFilter = { ...base, projects: local };

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
    if (!heard) request.embedded?.(ms);
    heard = true;
  };
  const noTime = request.vectorWaitMs !== undefined && request.vectorWaitMs <= 0;
  const arrived = vectors && !noTime ? vectorsArrived(vectors.nearest(text, admitted, VECTOR_PREFETCH, embedded, abandon.signal)) : undefined;
  let answered = false;
  if (arrived) {
    // Awaited below; until then a failure must not count as unhandled.
    arrived.then(() => (answered = true), () => (answered = true));
    // One turn of the event loop sends the embedding request; the lexical sources run while it is out.
    await new Promise((resolve) => setImmediate(resolve));
  }

  const keywordScopes: KeywordScope[] = local ? [{ filter: localFilter, limit: PREFETCH }, { filter: base, limit: PREFETCH }] : [{ filter: base, limit: PREFETCH }];
  const graphFilter: MemoryFilter = { kinds: [], statuses: base.statuses, projects: local };
  const lexicalStarted = performance.now();
  const synonyms = expandQuery(text);
  const inWindow = (): Candidate[] =>
    window
      ? store
          .list({ ...localFilter, createdAfter: window.from - window.tolerance, createdBefore: window.to + window.tolerance + 1 }, { limit: PREFETCH })
          .map((memory) => ({ seq: store.seqOf(memory.id) as number, facets: memory, memory, score: 0 }))
      : [];
  const pointed = local ? pointedProjects(store.absentPhrases(text, localFilter)) : new Set<string>();
  let found = {
    keyword: store.searchKeywordScopes(text, keywordScopes),
    // The query with its synonyms, as a source of its own: the thesaurus may be wrong about this query.
    expanded: synonyms.thesaurus.length > 0 ? store.searchKeywordScopes(text, keywordScopes, synonyms.thesaurus) : [],
    // General words' synonyms, apart: a dictionary knows less about this query than the thesaurus of its trade.
    general: synonyms.lexicon.length > 0 ? store.searchKeywordScopes(text, keywordScopes, synonyms.lexicon) : [],
    graph: store.searchGraph({ keys: queryEntityKeys(text), projects: local, statuses: base.statuses, limit: PREFETCH, hopFrom: 3, hopEntities: 5, hopDiscount: 0.3 }),
    inWindow: inWindow(),
  };
  // The same count after the wait means that nothing was written meanwhile.
  const changesBefore = arrived ? store.changeCount() : undefined;
  const waiting = arrived !== undefined && !answered;
  const early = waiting ? readHeads(store, [...found.keyword, ...found.expanded, ...found.general, found.graph], Math.min(request.limit, EARLY_READS_PER_LIST)) : new Map<number, MemoryRecord>();
  if (arrived) request.overlapped?.(performance.now() - lexicalStarted);

  const { hits: nearest, skipped } = arrived
    ? await waitForVectors(arrived, request.vectorWaitMs, performance.now() - requested, abandon)
    : { hits: [], skipped: vectors && noTime ? "the call's deadline left no time to embed the query" : "" };
  if (skipped !== "") embedded(performance.now() - requested);

  // Everything ranking reads is taken from here on: nothing can write before it is done.
  const unchanged = changesBefore === undefined || store.changeCount() === changesBefore;
  const facetsOf = store.rankingFacets();
  if (!unchanged) {
    found = {
      keyword: found.keyword.map((hits, i) => current(hits, facetsOf, (keywordScopes[i] as KeywordScope).filter)),
      expanded: found.expanded.map((hits, i) => current(hits, facetsOf, (keywordScopes[i] as KeywordScope).filter)),
      general: found.general.map((hits, i) => current(hits, facetsOf, (keywordScopes[i] as KeywordScope).filter)),
      graph: current(found.graph, facetsOf, graphFilter),
      inWindow: inWindow(),
    };
  }
  const [keyword = [], keywordWide = []] = found.keyword;
  const [expanded = [], expandedWide = []] = found.expanded;
  const [general = [], generalWide = []] = found.general;
  const isLocal = (c: Candidate) => local === undefined || local.includes(c.facets.project);
  const vectorWide = current(nearest, facetsOf, base);
  const vector = vectorWide.filter(isLocal);
  const graph = found.graph.filter((hit) => matchesKinds(hit.facets, base.kinds));
  // Only candidates are heads: a memory the kinds leave out must lift nothing, nor be lifted.
  const heads = [keyword, expanded, general, vector, graph].flatMap((list) => list.slice(0, NEIGHBOURS_OF).map((c) => c.seq));
  return {
    lists: {
      keyword,
      keywordForeign: local ? keywordWide.filter((c) => !isLocal(c)) : [],
      expanded,
      expandedForeign: local ? expandedWide.filter((c) => !isLocal(c)) : [],
      general,
      generalForeign: local ? generalWide.filter((c) => !isLocal(c)) : [],
      pointed,
      vector,
      vectorForeign: local ? vectorWide.filter((c) => !isLocal(c)) : [],
      graph,
      inWindow: found.inWindow,
      // The turn just before and just after: further out, a conversation has moved on.
      neighbours: store.sessionNeighbours([...new Set(heads)], localFilter, 1),
    },
    read: unchanged ? early : new Map(),
    vectorsSkipped: skipped,
  };
}

/**
 * The projects that words of the query, absent from the current project, point to: a word used
 * mostly (in at least half of the memories that use it) in one other project names something
 * that project holds ("dbt", "VPC", the project's own name). A word the current project lacks
 * but many others use (a chat's "tonight") points nowhere: that project just never said it.
 */
export function pointedProjects(absent: readonly AbsentPhrase[]): Set<string> {
  const pointed = new Set<string>();
  for (const { projects } of absent) {
    const total = [...projects.values()].reduce((a, b) => a + b, 0);
    for (const [project, count] of projects) if (count * 2 >= total && (projects.size === 1 || count * 2 > total)) pointed.add(project);
  }
  return pointed;
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
function readHeads(store: MemoryStore, lists: readonly (readonly RankedRow[])[], head: number): Map<number, MemoryRecord> {
  return store.memoriesBySeq([...new Set(lists.flatMap((list) => list.slice(0, head).map((hit) => hit.seq)))]);
}

function matchesKinds(facets: RankingFacets, kinds: readonly string[]): boolean {
  return kinds.length === 0 || kinds.includes(facets.kind);
}
