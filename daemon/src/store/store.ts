import type { MemoryEvent, MemoryRecord } from "../memory/memory.js";
import type { MemoryFacets, MemoryFilter } from "../memory/memory-filter.js";

export type { MemoryFilter };

/**
 * The narrow interface between the daemon and its database. Everything above it works
 * with plain records; all SQL lives in the implementation (store/sqlite/), so another
 * backend (PostgreSQL with pgvector, say) can sit beside it.
 */
export interface MemoryStore {
  /** The schema version the database is at. */
  readonly schemaVersion: number;
  /**
   * Stores a new memory durably; throws ConflictError if the id exists. Returns the memory's
   * sequence number, the key that derived indexes (vectors) use. While vectors are on, the
   * memory also waits for dedup by meaning (see takeDedupPending); imports never do.
   */
  insert(memory: MemoryRecord, event?: NewEvent): number;
  /** Which of these memories were waiting for dedup by meaning; they stop waiting. */
  takeDedupPending(memorySeqs: readonly number[]): number[];
  get(id: string): MemoryRecord | undefined;
  /** The sequence number of a memory id. */
  seqOf(id: string): number | undefined;
  /**
   * Applies `change` to the stored memory atomically, recording `event(current)` in the same
   * transaction when given; throws NotFoundError for an unknown id.
   */
  modify(id: string, change: (current: MemoryRecord) => MemoryRecord, event?: (current: MemoryRecord) => NewEvent): MemoryRecord;
  /** Saves a new claim and marks the old one superseded, in one transaction. */
  supersede(oldId: string, change: (old: MemoryRecord) => { next: MemoryRecord; old: MemoryRecord }, event: NewEvent): { next: MemoryRecord; old: MemoryRecord };
  /** When each memory was last reinforced (saved again, corroborated), for decay; memories never reinforced are absent. */
  lastReinforcements(): Map<string, number>;
  /** Recorded changes of these memories, oldest first. */
  events(memoryIds: readonly string[]): MemoryEvent[];
  /** Memories matching the filter, newest first, starting after `page.afterId`. */
  list(filter: MemoryFilter, page: PageRequest): MemoryRecord[];
  /** Full-text search ranked by BM25, best first. */
  searchKeyword(search: KeywordSearch): ScoredMemory[];
  /**
   * One keyword search over several scopes (a project and every project, say) in one pass: a
   * list for each scope, of rows with what ranking needs, not whole memories (see memoriesBySeq).
   * `alsoPhrases` are searched besides the query's own, as token sequences (a query's expansion).
   */
  searchKeywordScopes(query: string, scopes: readonly KeywordScope[], alsoPhrases?: readonly (readonly string[])[]): RankedRow[][];
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
  /** Whole memories by sequence number; unknown ones are absent. */
  memoriesBySeq(memorySeqs: readonly number[]): Map<number, MemoryRecord>;
  /** Records a read through recall: access count and last-accessed time. */
  recordAccess(ids: readonly string[], at: number): void;
  /** Stores memories exactly as given, keyed by id, in one transaction. */
  importMany(memories: readonly MemoryRecord[]): ImportCounts;
  /** Records history events as given (a rebuild from the vault), in one transaction, skipping any already recorded; returns how many were new. */
  importEvents(events: readonly MemoryEvent[]): number;
  /** Every memory, oldest first, read in pages so that no read stays open between pages. */
  exportAll(project?: string): Iterable<MemoryRecord>;
  stats(project?: string): StoreStats;
  /**
   * Derives every memory's entity links and content hash again (a changed extractor, a row
   * changed outside the daemon), `limit` memories per step and transaction, in seq order; yields
   * how many each step did. Each step reads where the last left off when it is asked for, so a
   * caller may let other work run between steps.
   */
  relinkInSteps(limit: number): Iterable<number>;
  /**
   * Rebuilds the keyword index and the in-memory copy of it and of the entity links that
   * searches read, from the memories table; the copy reloads in steps between requests.
   */
  rebuildKeywordIndex(): void;
  /** Copies the database to `file`, then deletes every archived memory; returns their sequence numbers. The only deletion path. */
  purgeArchived(backupFile: string): number[];
  /** Lifecycle counts for the ledger (see LedgerCounts). */
  ledger(project?: string): LedgerCounts;
  /**
   * A project's entity graph: its `limit` most recent active memories and the entities that link
   * two or more of them (an entity one memory names links nothing).
   */
  projectGraph(project: string, limit: number): ProjectGraph;
  /**
   * Recorded changes since `since` (ms), counted per UTC day (YYYY-MM-DD) and action; archiving
   * by consolidation counts as "consolidated". Days without changes are left out.
   */
  eventsPerDay(since: number, project?: string): { day: string; action: string; count: number }[];
  /** Every project with memories, most recently saved into first. */
  projects(): ProjectInfo[];
  /**
   * The project name for a directory, registering it on first sight: `preferredName`
   * unless another directory already holds that name.
   */
  projectForRoot(root: string, preferredName: string): string;
  close(): void;
  /** How many times each of these memories was reinforced; memories never reinforced are absent. */
  reinforcementCounts(memoryIds: readonly string[]): Map<string, number>;
  /** The skill graduation decisions recorded for these memories. */
  skillDecisions(memoryIds: readonly string[]): SkillDecision[];
  /** Records (or replaces) the decision on a memory's skill proposal. */
  recordSkillDecision(decision: SkillDecision): void;
  /** Memories of any project, kind and status whose normalised content equals this content's, oldest first. */
  withSameContent(content: string): MemoryRecord[];
  /** The root directory registered for a project name, if any. */
  projectRoot(name: string): string | undefined;
  /** A counter per project that every write to one of its memories raises; projects never written are absent. */
  projectVersions(projects: readonly string[]): Map<string, number>;
  /** Every project's MEMORY.md sync, by project name. */
  memoryFileSyncs(): MemoryFileSyncRecord[];
  /** Records a project's MEMORY.md sync, replacing the one it had. */
  putMemoryFileSync(sync: MemoryFileSyncRecord): void;
  /** Forgets a project's MEMORY.md sync; returns whether there was one. */
  deleteMemoryFileSync(project: string): boolean;
  /** Language-model tokens spent on a UTC day ("2026-10-14"); zeros for a day with none. */
  llmUsage(day: string): LlmUsageDay;
  /** Adds one call's tokens to a UTC day's total, durably. */
  addLlmUsage(day: string, usage: { inputTokens: number; outputTokens: number }): void;
  /** The memories already put into a session's context (by Brief or Suggest). */
  sessionInjections(sessionId: string): Set<string>;
  /** Records memories put into a session's context at `at`; recording one again refreshes its time. */
  recordSessionInjections(sessionId: string, memoryIds: readonly string[], at: number): void;
  /** Forgets what a session was given (its context was cleared); returns how many records went. */
  forgetSessionInjections(sessionId: string): number;
  /** Deletes the records of every session not given anything since `before`; returns how many went. */
  pruneSessionInjections(before: number): number;
}


export interface PageRequest {
  limit: number;
  /** Continue after this id (ids sort by creation time). */
  afterId?: string;
}

/** Which memories a keyword search may return, and how many. */
export interface KeywordScope {
  filter: MemoryFilter;
  limit: number;
}

export interface KeywordSearch extends KeywordScope {
  query: string;
}

/** An event to record with a write; the store stamps the memory id. */
export type NewEvent = Omit<MemoryEvent, "memoryId">;

/** A project's memories and the entities that link them (see MemoryStore.projectGraph). */
export interface ProjectGraph {
  memories: Pick<MemoryRecord, "id" | "content" | "kind">[];
  entities: { key: string; type: string }[];
  links: { memoryId: string; entityKey: string }[];
}

/** An entity a memory names, as the graph stores it. */
export interface LinkedEntity {
  key: string;
  type: string;
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

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface StoreStats {
  total: number;
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  byProject: Record<string, number>;
  databaseBytes: number;
  schemaVersion: number;
}

export interface LedgerCounts {
  active: number;
  staged: number;
  /** Memories reinforced at least once. */
  reinforced: number;
  /** Inferred memories that became active (corroborated or confirmed). */
  promoted: number;
  episodes: number;
  archived: number;
  superseded: number;
  consolidated: number;
  expired: number;
  decayed: number;
}

export interface ProjectInfo {
  name: string;
  root: string;
  activeCount: number;
  lastSaveAt: number | null;
}

/** A person's decision on a skill proposal: approved (a SKILL.md was written at skillPath) or dismissed. */
export interface SkillDecision {
  memoryId: string;
  decision: "approved" | "dismissed";
  /** The SKILL.md written on approval; empty for dismissals. */
  skillPath: string;
  at: number;
}

/** A project whose MEMORY.md section memd keeps current. */
export interface MemoryFileSyncRecord {
  project: string;
  /** The absolute path of the Markdown file. */
  path: string;
  enabledAt: number;
  /** True when memd created the file, so that disabling may remove it again if nothing else is left in it. */
  createdFile: boolean;
}

/** What the optional language model cost on one UTC day, across every use (the spend ledger). */
export interface LlmUsageDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  inputTokens: number;
  outputTokens: number;
  calls: number;
}
