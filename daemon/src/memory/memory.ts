/** The daemon's own view of a memory: plain values, independent of the wire format. */

export const MEMORY_KINDS = [
  "fact", "decision", "preference", "procedure", "episode",
  "trace", "idea", "rule", "task", "context",
] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export const PROVENANCES = ["save", "checkpoint", "debate", "human", "distilled", "import"] as const;
export type Provenance = (typeof PROVENANCES)[number];

export const TIERS = ["regular", "core"] as const;
export type Tier = (typeof TIERS)[number];

export const MEMORY_STATUSES = ["active", "staged", "archived", "superseded"] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

/** The project that holds user-wide memories. */
/**
 * The times a memory may hold, in ms since the epoch: what protobuf's JSON mapping can write
 * (0001-01-01 to 9999-12-31, to the millisecond). A time outside would fail every read of its
 * memory as JSON, so requests are refused outside it (services/convert.ts) and a stored time
 * outside it (an older memd, a hand edit) is read as the nearest end (store/sqlite/memory-row.ts).
 */
export const EARLIEST_TIME_MS = -62_135_596_800_000;
export const LATEST_TIME_MS = 253_402_300_799_999;

/** A finite time in ms as the nearest whole millisecond within the range above. */
export function withinTimeRange(ms: number): number {
  return Math.min(LATEST_TIME_MS, Math.max(EARLIEST_TIME_MS, Math.floor(ms)));
}

export const GLOBAL_PROJECT = "global";

/**
 * The projects a read in `project` covers: the project and the global memories, once; the project
 * alone with `excludeGlobal`; every project (undefined) when no project is named.
 */
export function localProjects(project: string, excludeGlobal?: boolean): string[];
export function localProjects(project: string | undefined, excludeGlobal?: boolean): string[] | undefined;
export function localProjects(project: string | undefined, excludeGlobal = false): string[] | undefined {
  if (project === undefined) return undefined;
  return excludeGlobal || project === GLOBAL_PROJECT ? [project] : [project, GLOBAL_PROJECT];
}

/** Times are milliseconds since the Unix epoch; optional times are null when unset. */
export interface MemoryRecord {
  id: string;
  content: string;
  kind: MemoryKind;
  project: string;
  problem: string;
  solution: string;
  concepts: string[];
  files: string[];
  tags: string[];
  confidence: number;
  provenance: Provenance;
  tier: Tier;
  status: MemoryStatus;
  pinned: boolean;
  importance: number;
  valence: number;
  intensity: number;
  sessionId: string;
  sourceAgent: string;
  createdAt: number;
  updatedAt: number;
  lastAccessedAt: number | null;
  expiresAt: number | null;
  reviewAt: number | null;
  accessCount: number;
  supersedes: string;
  supersededBy: string;
  archiveReason: string;
  /** When the claim stopped holding (it was superseded); null while it holds. */
  invalidAt: number | null;
  /**
   * Who else wrote it, as the hub recorded it (see author.ts): the hub user whose memory it is
   * when it is another person's ("" for this person's own), another person who changed it last
   * ("" for none), and the team through which it reached this person. Only the hub sets them.
   */
  author: string;
  editedBy: string;
  viaTeam: string;
}

/**
 * What a recorded change did. conflict: a version another machine wrote at the same time lost to
 * this one (see hub/conflict.ts); the event's detail holds that version whole.
 */
export const EVENT_ACTIONS = ["created", "updated", "superseded", "archived", "promoted", "rejected", "reinforced", "conflict"] as const;

/** A recorded change to a memory, kept so that history can be shown and nothing is silently lost. */
export interface MemoryEvent {
  memoryId: string;
  at: number;
  action: (typeof EVENT_ACTIONS)[number];
  sessionId: string;
  detail: string;
}

/** The fields a caller may change with Update; absent keys stay as they are. */
export type MemoryPatch = Partial<
  Pick<
    MemoryRecord,
    | "content" | "kind" | "project" | "problem" | "solution" | "concepts" | "files" | "tags"
    | "confidence" | "tier" | "pinned" | "importance" | "valence" | "intensity" | "expiresAt" | "reviewAt"
  >
>;
