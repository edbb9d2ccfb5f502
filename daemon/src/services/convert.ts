import { create } from "@bufbuild/protobuf";
import { type Timestamp, timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  type Memory,
  MemoryKind as PbKind,
  MemorySchema,
  MemoryStatus as PbStatus,
  Provenance as PbProvenance,
  Tier as PbTier,
} from "../../../gen/memd/v1/memory_pb.js";
import { InvalidInputError } from "../errors.js";
import { EARLIEST_TIME_MS, LATEST_TIME_MS, type MemoryKind, type MemoryRecord, type MemoryStatus, type Provenance, type Tier, withinTimeRange } from "../memory/memory.js";

/** Translation between the wire messages and the daemon's plain records. */

const KINDS = new Map<PbKind, MemoryKind>([
  [PbKind.FACT, "fact"],
  [PbKind.DECISION, "decision"],
  [PbKind.PREFERENCE, "preference"],
  [PbKind.PROCEDURE, "procedure"],
  [PbKind.EPISODE, "episode"],
  [PbKind.TRACE, "trace"],
  [PbKind.IDEA, "idea"],
  [PbKind.RULE, "rule"],
  [PbKind.TASK, "task"],
  [PbKind.CONTEXT, "context"],
]);
const PROVENANCES = new Map<PbProvenance, Provenance>([
  [PbProvenance.SAVE, "save"],
  [PbProvenance.CHECKPOINT, "checkpoint"],
  [PbProvenance.DEBATE, "debate"],
  [PbProvenance.HUMAN, "human"],
  [PbProvenance.DISTILLED, "distilled"],
  [PbProvenance.IMPORT, "import"],
]);
const TIERS = new Map<PbTier, Tier>([
  [PbTier.REGULAR, "regular"],
  [PbTier.CORE, "core"],
]);
const STATUSES = new Map<PbStatus, MemoryStatus>([
  [PbStatus.ACTIVE, "active"],
  [PbStatus.STAGED, "staged"],
  [PbStatus.ARCHIVED, "archived"],
  [PbStatus.SUPERSEDED, "superseded"],
]);

/**
 * Reads an enum field. Binary protobuf keeps unknown enum numbers, so each value is checked;
 * UNSPECIFIED (0) yields the fallback, or undefined when there is none.
 */
function fromEnum<P extends number, D extends string>(
  table: Map<P, D>,
  field: string,
  value: P,
  fallback?: D,
): D | undefined {
  if (value === 0) return fallback;
  const mapped = table.get(value);
  if (mapped === undefined) {
    const known = [...table.values()].join(", ");
    throw new InvalidInputError(`${field} has unknown value ${value}; use one of ${known}`);
  }
  return mapped;
}

function toEnum<P extends number, D extends string>(table: Map<P, D>, value: D): P {
  for (const [pb, domain] of table) if (domain === value) return pb;
  throw new Error(`no wire value for ${value}`);
}

export const kindFromPb = (v: PbKind, fallback?: MemoryKind) => fromEnum(KINDS, "kind", v, fallback);
export const provenanceFromPb = (v: PbProvenance, fallback?: Provenance) =>
  fromEnum(PROVENANCES, "provenance", v, fallback);
export const tierFromPb = (v: PbTier) => fromEnum(TIERS, "tier", v);
export const statusFromPb = (v: PbStatus, fallback?: MemoryStatus) => fromEnum(STATUSES, "status", v, fallback);

export const kindToPb = (kind: MemoryKind): PbKind => toEnum(KINDS, kind);

export function kindsFromPb(values: readonly PbKind[]): MemoryKind[] {
  return values.map((v) => fromEnum(KINDS, "kinds", v)).filter((v): v is MemoryKind => v !== undefined);
}

export function statusesFromPb(values: readonly PbStatus[]): MemoryStatus[] {
  return values.map((v) => fromEnum(STATUSES, "statuses", v)).filter((v): v is MemoryStatus => v !== undefined);
}


/** A request's time as ms since the epoch (null when unset), or InvalidInputError naming `field`. */
export function timeFromPb(field: string, value: Timestamp | undefined): number | null {
  if (!value) return null;
  const ms = Number(value.seconds) * 1000 + Math.floor(value.nanos / 1_000_000);
  if (!Number.isInteger(value.nanos) || value.nanos < 0 || value.nanos > 999_999_999 || !Number.isFinite(ms) || ms < EARLIEST_TIME_MS || ms > LATEST_TIME_MS) {
    throw new InvalidInputError(`${field} must be a time from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z; got ${value.seconds}s ${value.nanos}ns`);
  }
  return ms;
}

/**
 * A stored time on the wire; unset when null. Every answer's times go through here: a stored time
 * outside what JSON can write (an older memd, a hand edit) is sent as the nearest end of the range
 * rather than fail the answer, and one that is no number at all as unset.
 */
export function timeToPb(ms: number | null): Timestamp | undefined {
  if (ms === null || !Number.isFinite(ms)) return undefined;
  return timestampFromMs(withinTimeRange(ms));
}

export function memoryToPb(m: MemoryRecord): Memory {
  return create(MemorySchema, {
    id: m.id,
    content: m.content,
    kind: toEnum(KINDS, m.kind),
    project: m.project,
    problem: m.problem,
    solution: m.solution,
    concepts: m.concepts,
    files: m.files,
    tags: m.tags,
    confidence: m.confidence,
    provenance: toEnum(PROVENANCES, m.provenance),
    tier: toEnum(TIERS, m.tier),
    status: toEnum(STATUSES, m.status),
    pinned: m.pinned,
    importance: m.importance,
    valence: m.valence,
    intensity: m.intensity,
    sessionId: m.sessionId,
    sourceAgent: m.sourceAgent,
    createTime: timeToPb(m.createdAt),
    updateTime: timeToPb(m.updatedAt),
    lastAccessTime: timeToPb(m.lastAccessedAt),
    expireTime: timeToPb(m.expiresAt),
    reviewTime: timeToPb(m.reviewAt),
    accessCount: BigInt(m.accessCount),
    supersedes: m.supersedes,
    supersededBy: m.supersededBy,
    archiveReason: m.archiveReason,
    invalidTime: timeToPb(m.invalidAt),
    author: m.author,
    editedBy: m.editedBy,
    viaTeam: m.viaTeam,
  });
}

/** The record an imported message describes, all fields kept as given; times must be set. */
export function memoryFromPb(m: Memory): Omit<MemoryRecord, "createdAt" | "updatedAt"> & {
  createdAt: number | null;
  updatedAt: number | null;
} {
  return {
    id: m.id,
    content: m.content,
    kind: kindFromPb(m.kind, "fact") as MemoryKind,
    project: m.project,
    problem: m.problem,
    solution: m.solution,
    concepts: m.concepts,
    files: m.files,
    tags: m.tags,
    confidence: m.confidence,
    provenance: provenanceFromPb(m.provenance, "import") as Provenance,
    tier: tierFromPb(m.tier) ?? "regular",
    status: statusFromPb(m.status, "active") as MemoryStatus,
    pinned: m.pinned,
    importance: m.importance,
    valence: m.valence,
    intensity: m.intensity,
    sessionId: m.sessionId,
    sourceAgent: m.sourceAgent,
    createdAt: timeFromPb("create_time", m.createTime),
    updatedAt: timeFromPb("update_time", m.updateTime),
    lastAccessedAt: timeFromPb("last_access_time", m.lastAccessTime),
    expiresAt: timeFromPb("expire_time", m.expireTime),
    reviewAt: timeFromPb("review_time", m.reviewTime),
    accessCount: Number(m.accessCount),
    supersedes: m.supersedes,
    supersededBy: m.supersededBy,
    archiveReason: m.archiveReason,
    invalidAt: timeFromPb("invalid_time", m.invalidTime),
    author: m.author,
    editedBy: m.editedBy,
    viaTeam: m.viaTeam,
  };
}
