import type { MemoryRecord } from "../../memory/memory.js";
import type { QueryPhrase, WeightedPhrase } from "../../keywords/keyword-index.js";
import type { MemoryFacets, MemoryFilter } from "../../memory/memory-filter.js";

/**
 * What recall reads to find memories: keyword and entity-graph searches, session neighbours,
 * and the facets ranking needs, all answered from the search indexes without reading whole
 * memories (MemoryRecords.memoriesBySeq reads the few that are kept).
 */
export interface MemorySearch {
  /** Full-text search ranked by BM25, best first. */
  searchKeyword(search: KeywordSearch): ScoredMemory[];
  /**
   * One keyword search over several scopes (a project and every project, say) in one pass: a
   * list for each scope, of rows with what ranking needs, not whole memories (see memoriesBySeq).
   * `alsoPhrases` are searched besides the query's own, as token sequences (a query's expansion),
   * each counting for its weight.
   */
  searchKeywordScopes(query: string, scopes: readonly KeywordScope[], alsoPhrases?: readonly WeightedPhrase[]): RankedRow[][];
  /**
   * The query's phrases (as keyword search reads them) that memories of other projects hold but
   * none of the filter's projects do, each with how many memories of each project hold it (of
   * the filter's statuses and kinds): the words another project could add to the current one's.
   */
  absentPhrases(query: string, filter: MemoryFilter): AbsentPhrase[];
  /** Memories reached through the entity graph from the query's entity keys, best first. */
  searchGraph(search: GraphSearch): GraphHit[];
  /**
   * For each of these memories, the memories up to `reach` places before and after it in its
   * session (by creation time) that the filter admits, as rows with score 0; memories in no
   * session, or alone in theirs, are absent.
   */
  sessionNeighbours(memorySeqs: readonly number[], filter: MemoryFilter, reach: number): Map<number, RankedRow[]>;
  /** A test of the filter on a memory by sequence number, without reading it, as the store is now. */
  admits(filter: MemoryFilter): (memorySeq: number) => boolean;
  /** A lookup of what ranking needs of a memory by sequence number, without reading it, as the store is now. */
  rankingFacets(): (memorySeq: number) => RankingFacets | undefined;
  /**
   * A count that moves with every write the store makes (any table, rolled back or not): equal
   * readings mean it wrote nothing in between. Writes by anything else are not seen; the daemon
   * is the database's one writer.
   */
  changeCount(): number;
  /**
   * Rebuilds the keyword index and the in-memory copy of it and of the entity links that
   * searches read, from the memories table; the copy reloads in steps between requests.
   */
  rebuildKeywordIndex(): void;
}

/** A phrase of a query that the current project lacks, and where it is used instead. */
export interface AbsentPhrase {
  phrase: QueryPhrase;
  /** How many memories of each project that holds it hold it. */
  projects: ReadonlyMap<string, number>;
}

/** Which memories a keyword search may return, and how many. */
export interface KeywordScope {
  filter: MemoryFilter;
  limit: number;
}

export interface KeywordSearch extends KeywordScope {
  query: string;
}

export interface GraphSearch {
  keys: readonly string[];
  projects?: readonly string[];
  statuses: readonly string[];
  limit: number;
  /** How many of the best direct hits the one-hop expansion starts from. */
  hopFrom: number;
  /** How many co-occurring entities one hop out are followed. */
  hopEntities: number;
  /** What a one-hop link is worth relative to a direct one. */
  hopDiscount: number;
}

/** An entity a memory names, as the graph stores it. */
export interface LinkedEntity {
  key: string;
  type: string;
}

/** What ranking needs to know of a memory; the search indexes hold it, so no row is read. */
export type RankingFacets = MemoryFacets & Pick<MemoryRecord, "id" | "importance" | "intensity" | "confidence" | "accessCount">;

/** A search hit before its memory is read. */
export interface RankedRow {
  seq: number;
  facets: RankingFacets;
  /** Higher is better. */
  score: number;
}

export interface GraphHit extends RankedRow {
  /** The entity keys that led here. */
  path: string[];
}

export interface ScoredMemory {
  memory: MemoryRecord;
  /** Higher is better. */
  score: number;
}
