/*
 * Where synchronous code ends. The local ports below are synchronous: the daemon is its SQLite
 * database's one writer, and a synchronous call into better-sqlite3 is what keeps Save and
 * Search in single milliseconds (no promise, no turn of the event loop, no pool). An engine
 * across a network (the PostgreSQL hub, hub/hub-port.ts) has its own asynchronous port beside these,
 * implementing only the concerns it holds, rather than making these asynchronous.
 */
import type { ChangeFeed } from "./ports/change-feed.js";
import type { Contradictions } from "./ports/contradictions.js";
import type { InjectionLog } from "./ports/injection-log.js";
import type { LlmSpend } from "./ports/llm-spend.js";
import type { MemoryFileSyncs } from "./ports/memory-file-syncs.js";
import type { MemoryRecords } from "./ports/memory-records.js";
import type { MemorySearch } from "./ports/memory-search.js";
import type { ProjectRegistry } from "./ports/project-registry.js";
import type { SessionInjections } from "./ports/session-injections.js";
import type { SkillDecisions } from "./ports/skill-decisions.js";
import type { StoreReports } from "./ports/store-reports.js";

export type { MemoryFilter } from "../memory/memory-filter.js";
export type { ChangeFeed, ChangeKind, ChangeListener, RecordChange, RecordKind } from "./ports/change-feed.js";
export type {
  ContradictionQuery, ContradictionRecord, ContradictionResolution, Contradictions, ContradictionSource, NewContradiction, SettledContradiction,
} from "./ports/contradictions.js";
export type { InjectionLog, InjectionQuery } from "./ports/injection-log.js";
export type { LlmSpend, LlmUsageDay } from "./ports/llm-spend.js";
export type { MemoryFileSyncRecord, MemoryFileSyncs } from "./ports/memory-file-syncs.js";
export type { ImportCounts, MemoryRecords, NewEvent, PageRequest } from "./ports/memory-records.js";
export type {
  AbsentPhrase, GraphHit, GraphSearch, KeywordScope, KeywordSearch, LinkedEntity, MemorySearch, RankedRow, RankingFacets, ScoredMemory,
} from "./ports/memory-search.js";
export type { ProjectInfo, ProjectRegistry } from "./ports/project-registry.js";
export type { SessionInjections } from "./ports/session-injections.js";
export type { SkillDecision, SkillDecisions } from "./ports/skill-decisions.js";
export type { LedgerCounts, ProjectGraph, StoreReports, StoreStats } from "./ports/store-reports.js";

/**
 * The local engine's whole surface: the ports everything above the store works with, on one
 * database. All SQL lives in the implementation (store/sqlite/). The small concerns are
 * sub-stores on the same connection, as the vectors and the vault are, so a caller that needs
 * one takes that port alone.
 */
export interface MemoryStore extends MemoryRecords, MemorySearch, StoreReports, ProjectRegistry {
  /** The schema version the database is at. */
  readonly schemaVersion: number;
  /** What Brief and Suggest already put into each session's context. */
  readonly injections: SessionInjections;
  /** The record of every injection, kept for a bounded time and number of rows. */
  readonly injectionLog: InjectionLog;
  readonly skillDecisions: SkillDecisions;
  readonly memoryFileSyncs: MemoryFileSyncs;
  readonly llmSpend: LlmSpend;
  /** What each committed transaction changed: the one feed that workers and watchers follow. */
  readonly changes: ChangeFeed;
  /** Pairs of memories found to contradict each other, and how each was settled. */
  readonly contradictions: Contradictions;
  close(): void;
}
