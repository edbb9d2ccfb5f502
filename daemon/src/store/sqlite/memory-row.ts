import type Database from "better-sqlite3";
import {
  MEMORY_KINDS, MEMORY_STATUSES, type MemoryRecord, PROVENANCES, TIERS, withinTimeRange,
} from "../../memory/memory.js";

/** A row of the memories table as SQLite returns it. */
export interface MemoryRow {
  id: string;
  content: string;
  kind: string;
  project: string;
  problem: string;
  solution: string;
  concepts: string;
  files: string;
  tags: string;
  confidence: number;
  provenance: string;
  tier: string;
  status: string;
  pinned: number;
  importance: number;
  valence: number;
  intensity: number;
  session_id: string;
  source_agent: string;
  created_at: number;
  updated_at: number;
  last_accessed_at: number | null;
  expires_at: number | null;
  review_at: number | null;
  access_count: number;
  supersedes: string;
  superseded_by: string;
  archive_reason: string;
  invalid_at: number | null;
  author: string;
  edited_by: string;
  via_team: string;
}

/** The columns written for a memory, in a fixed order shared by INSERT and UPDATE. */
export const MEMORY_COLUMNS = [
  "id", "content", "kind", "project", "problem", "solution", "concepts", "files", "tags",
  "confidence", "provenance", "tier", "status", "pinned", "importance", "valence", "intensity",
  "session_id", "source_agent", "created_at", "updated_at", "last_accessed_at", "expires_at",
  "review_at", "access_count", "supersedes", "superseded_by", "archive_reason", "invalid_at",
  "author", "edited_by", "via_team",
] as const;

/** What an unusable stored value is read as (see rowToMemory): the defaults of a new memory. */
export const READ_AS = {
  kind: "fact", provenance: "save", tier: "regular", status: "active", confidence: 0.5, importance: 3, valence: 0, intensity: 0, accessCount: 0, requiredTime: 0,
} as const;

/** Told of a stored memory that could only be read by repairing some of its values. */
export type UnreadableRowReport = (id: string, problems: readonly string[]) => void;

/**
 * A stored row as a memory. Reading never fails on a row: a value memd cannot use (a list that
 * is not JSON, an unknown kind, a time outside the wire's range, text in a number column, as an
 * older memd or a hand edit in the sqlite3 shell can leave) is read as the nearest sensible
 * value and reported, so one bad row cannot fail every Get, List, Search and Export of its
 * project. The row itself is left as it is.
 */
export function rowToMemory(row: MemoryRow, report?: UnreadableRowReport): MemoryRecord {
  const problems: string[] = [];
  const read = new ColumnReader(row as unknown as Record<string, unknown>, problems);
  const memory: MemoryRecord = {
    id: read.text("id"),
    content: read.text("content"),
    kind: read.oneOf("kind", MEMORY_KINDS, READ_AS.kind),
    project: read.text("project"),
    problem: read.text("problem"),
    solution: read.text("solution"),
    concepts: read.list("concepts"),
    files: read.list("files"),
    tags: read.list("tags"),
    confidence: read.number("confidence", READ_AS.confidence),
    provenance: read.oneOf("provenance", PROVENANCES, READ_AS.provenance),
    tier: read.oneOf("tier", TIERS, READ_AS.tier),
    status: read.oneOf("status", MEMORY_STATUSES, READ_AS.status),
    pinned: row.pinned === 1,
    importance: read.number("importance", READ_AS.importance),
    valence: read.number("valence", READ_AS.valence),
    intensity: read.number("intensity", READ_AS.intensity),
    sessionId: read.text("session_id"),
    sourceAgent: read.text("source_agent"),
    createdAt: read.time("created_at") ?? READ_AS.requiredTime,
    updatedAt: read.time("updated_at") ?? READ_AS.requiredTime,
    lastAccessedAt: read.time("last_accessed_at"),
    expiresAt: read.time("expires_at"),
    reviewAt: read.time("review_at"),
    accessCount: read.number("access_count", READ_AS.accessCount),
    supersedes: read.text("supersedes"),
    supersededBy: read.text("superseded_by"),
    archiveReason: read.text("archive_reason"),
    invalidAt: read.time("invalid_at"),
    author: read.text("author"),
    editedBy: read.text("edited_by"),
    viaTeam: read.text("via_team"),
  };
  if (problems.length > 0) report?.(memory.id, problems);
  return memory;
}

/** Reads a row's columns by the type memd wrote them as, noting each value it had to repair. */
export class ColumnReader {
  constructor(
    private readonly row: Record<string, unknown>,
    private readonly problems: string[],
  ) {}

  text(column: string): string {
    const value = this.row[column];
    if (typeof value === "string") return value;
    this.problems.push(`${column} is not text`);
    return value === null || value === undefined ? "" : Buffer.isBuffer(value) ? value.toString("utf8") : String(value);
  }

  number(column: string, fallback: number): number {
    const value = this.row[column];
    if (typeof value === "number" && Number.isFinite(value)) return value;
    this.problems.push(`${column} is not a number, read as ${fallback}`);
    return fallback;
  }

  /** A time in ms, within what the wire can carry; null when unset or unreadable. */
  time(column: string): number | null {
    const value = this.row[column];
    if (value === null) return null;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      this.problems.push(`${column} is not a time, read as unset`);
      return null;
    }
    const ms = withinTimeRange(value);
    if (ms !== value) this.problems.push(`${column} ${value} is outside 0001-9999 or not whole milliseconds, read as ${ms}`);
    return ms;
  }

  oneOf<T extends string>(column: string, allowed: readonly T[], fallback: T): T {
    // The allowed list's own string, not the row's copy: the search mirror keeps a kind and a
    // status for every memory, and 100k copies of "active" cost 2 MB each.
    const at = (allowed as readonly unknown[]).indexOf(this.row[column]);
    if (at >= 0) return allowed[at] as T;
    const value = this.row[column];
    this.problems.push(`${column} has unknown value ${JSON.stringify(value)}, read as ${fallback}`);
    return fallback;
  }

  /** A JSON array of strings; what is not one is read as the strings it holds, or as empty. */
  list(column: string): string[] {
    const value = this.row[column];
    let parsed: unknown;
    try {
      parsed = typeof value === "string" ? JSON.parse(value) : undefined;
    } catch {
      parsed = undefined;
    }
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === "string")) return parsed as string[];
    this.problems.push(`${column} is not a JSON list of strings`);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string") : [];
  }
}

export function memoryToRow(m: MemoryRecord): MemoryRow {
  return {
    id: m.id,
    content: m.content,
    kind: m.kind,
    project: m.project,
    problem: m.problem,
    solution: m.solution,
    concepts: JSON.stringify(m.concepts),
    files: JSON.stringify(m.files),
    tags: JSON.stringify(m.tags),
    confidence: m.confidence,
    provenance: m.provenance,
    tier: m.tier,
    status: m.status,
    pinned: m.pinned ? 1 : 0,
    importance: m.importance,
    valence: m.valence,
    intensity: m.intensity,
    session_id: m.sessionId,
    source_agent: m.sourceAgent,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    last_accessed_at: m.lastAccessedAt,
    expires_at: m.expiresAt,
    review_at: m.reviewAt,
    access_count: m.accessCount,
    supersedes: m.supersedes,
    superseded_by: m.supersededBy,
    archive_reason: m.archiveReason,
    invalid_at: m.invalidAt,
    author: m.author,
    edited_by: m.editedBy,
    via_team: m.viaTeam,
  };
}

/** True when two rows would store the same values. */
export function sameRow(a: MemoryRow, b: MemoryRow): boolean {
  return MEMORY_COLUMNS.every((column) => a[column] === b[column]);
}

// Searches read rows several times each: preparing the statement cost about as much as running it.
const bySeqStatements = new WeakMap<Database.Database, Database.Statement>();

/** These memories by sequence number, in the order given; unknown numbers are left out. */
export function readMemoriesBySeq(db: Database.Database, memorySeqs: readonly number[], report?: UnreadableRowReport): { seq: number; memory: MemoryRecord }[] {
  if (memorySeqs.length === 0) return [];
  let statement = bySeqStatements.get(db);
  if (!statement) {
    statement = db.prepare("SELECT * FROM memories WHERE seq IN (SELECT value FROM json_each(?))");
    bySeqStatements.set(db, statement);
  }
  const rows = statement.all(JSON.stringify(memorySeqs)) as (MemoryRow & { seq: number })[];
  const bySeq = new Map(rows.map((row) => [row.seq, row]));
  return memorySeqs.flatMap((seq) => {
    const row = bySeq.get(seq);
    return row ? [{ seq, memory: rowToMemory(row, report) }] : [];
  });
}
