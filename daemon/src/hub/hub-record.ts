import { z } from "zod";
import { InvalidInputError } from "../errors.js";
import { EVENT_ACTIONS, MEMORY_KINDS, MEMORY_STATUSES, PROVENANCES, TIERS, type MemoryEvent, type MemoryRecord } from "../memory/memory.js";
import type { Authorship } from "../memory/author.js";
import { validateImported } from "../memory/imported-memory.js";
import type { MemoryLimits } from "../memory/validate.js";

/**
 * What arrives from the hub was written by other machines, some of them other people's: each
 * memory and event is checked as strictly as an Import (shape, enums, bounds, secrets redacted)
 * before it reaches the local database, and one that fails is skipped and reported, never stored.
 */
const timeOrNull = z.number().finite().nullable();
const recordShape = z.object({
  id: z.string(),
  content: z.string(),
  kind: z.enum(MEMORY_KINDS),
  project: z.string(),
  problem: z.string(),
  solution: z.string(),
  concepts: z.array(z.string()).max(1000),
  files: z.array(z.string()).max(1000),
  tags: z.array(z.string()).max(1000),
  confidence: z.number(),
  provenance: z.enum(PROVENANCES),
  tier: z.enum(TIERS),
  status: z.enum(MEMORY_STATUSES),
  pinned: z.boolean(),
  importance: z.number(),
  valence: z.number(),
  intensity: z.number(),
  sessionId: z.string().max(256),
  sourceAgent: z.string().max(256),
  createdAt: z.number().finite(),
  updatedAt: z.number().finite(),
  lastAccessedAt: timeOrNull,
  expiresAt: timeOrNull,
  reviewAt: timeOrNull,
  accessCount: z.number(),
  supersedes: z.string(),
  supersededBy: z.string(),
  archiveReason: z.string().max(4096),
  invalidAt: timeOrNull,
});

const eventShape = z.object({
  memoryId: z.string(),
  at: z.number().finite(),
  action: z.enum(EVENT_ACTIONS),
  sessionId: z.string().max(256),
  detail: z.string().max(2_000_000),
});

/**
 * A memory from the hub, checked; throws InvalidInputError naming what is wrong. Who wrote it is
 * what the hub recorded (`authorship`): whatever the record itself claims is not read.
 */
export function memoryFromHub(value: unknown, limits: MemoryLimits, authorship: Authorship): MemoryRecord {
  const parsed = recordShape.safeParse(value);
  if (!parsed.success) throw new InvalidInputError(`a memory from the hub is malformed: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return validateImported({ ...parsed.data, ...authorship }, limits);
}

/** A history event from the hub, checked against the memory it must belong to. */
export function eventFromHub(value: unknown, memoryId: string): MemoryEvent {
  const parsed = eventShape.safeParse(value);
  if (!parsed.success) throw new InvalidInputError(`an event from the hub is malformed: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  if (parsed.data.memoryId !== memoryId) throw new InvalidInputError(`an event from the hub names memory ${parsed.data.memoryId} but is filed under ${memoryId}`);
  return parsed.data;
}
