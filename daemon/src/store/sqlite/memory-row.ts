import type Database from "better-sqlite3";
import type { MemoryKind, MemoryRecord, MemoryStatus, Provenance, Tier } from "../../memory/memory.js";

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
}

/** The columns written for a memory, in a fixed order shared by INSERT and UPDATE. */
export const MEMORY_COLUMNS = [
  "id", "content", "kind", "project", "problem", "solution", "concepts", "files", "tags",
  "confidence", "provenance", "tier", "status", "pinned", "importance", "valence", "intensity",
  "session_id", "source_agent", "created_at", "updated_at", "last_accessed_at", "expires_at",
  "review_at", "access_count", "supersedes", "superseded_by", "archive_reason", "invalid_at",
] as const;

export function rowToMemory(row: MemoryRow): MemoryRecord {
  return {
    id: row.id,
    content: row.content,
    kind: row.kind as MemoryKind,
    project: row.project,
    problem: row.problem,
    solution: row.solution,
    concepts: JSON.parse(row.concepts) as string[],
    files: JSON.parse(row.files) as string[],
    tags: JSON.parse(row.tags) as string[],
    confidence: row.confidence,
    provenance: row.provenance as Provenance,
    tier: row.tier as Tier,
    status: row.status as MemoryStatus,
    pinned: row.pinned === 1,
    importance: row.importance,
    valence: row.valence,
    intensity: row.intensity,
    sessionId: row.session_id,
    sourceAgent: row.source_agent,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastAccessedAt: row.last_accessed_at,
    expiresAt: row.expires_at,
    reviewAt: row.review_at,
    accessCount: row.access_count,
    supersedes: row.supersedes,
    supersededBy: row.superseded_by,
    archiveReason: row.archive_reason,
    invalidAt: row.invalid_at,
  };
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
  };
}

/** True when two rows would store the same values. */
export function sameRow(a: MemoryRow, b: MemoryRow): boolean {
  return MEMORY_COLUMNS.every((column) => a[column] === b[column]);
}

// Searches read rows several times each: preparing the statement cost about as much as running it.
const bySeqStatements = new WeakMap<Database.Database, Database.Statement>();

/** These memories by sequence number, in the order given; unknown numbers are left out. */
export function readMemoriesBySeq(db: Database.Database, memorySeqs: readonly number[]): { seq: number; memory: MemoryRecord }[] {
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
    return row ? [{ seq, memory: rowToMemory(row) }] : [];
  });
}
