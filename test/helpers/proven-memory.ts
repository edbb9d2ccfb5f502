import { create, toJsonString } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { ulid } from "ulid";
import { type Memory, MemoryKind, MemorySchema, MemoryStatus, Provenance, Tier } from "../../gen/memd/v1/memory_pb.js";

const DAY_MS = 86_400_000;

export interface ProvenMemoryInput {
  content: string;
  kind: MemoryKind;
  project: string;
  concepts?: string[];
  /** The session that first saved it. */
  sessionId?: string;
  /** Whether it was read back since (a person's memory, recalled a week later); false leaves it unused since. */
  readBack?: boolean;
}

/**
 * A memory a person stated ten days ago, as memd holds it after a week of use (read back through
 * recall three days ago), for Import: what skill graduation calls proven. A memory saved in the
 * test itself is minutes old, and no memory that fresh is proposed as a skill. With `readBack`
 * false it was never used since: saving it again (from another session) is what proves it.
 */
export function provenMemory(input: ProvenMemoryInput, now = Date.now()): Memory {
  const savedAt = now - 10 * DAY_MS;
  const readBack = input.readBack ?? true;
  return create(MemorySchema, {
    id: ulid(savedAt),
    content: input.content,
    kind: input.kind,
    project: input.project,
    concepts: input.concepts ?? [],
    confidence: 0.95,
    provenance: Provenance.HUMAN,
    tier: Tier.REGULAR,
    status: MemoryStatus.ACTIVE,
    importance: 3,
    sessionId: input.sessionId ?? "s-ten-days-ago",
    createTime: timestampFromMs(savedAt),
    updateTime: timestampFromMs(savedAt),
    ...(readBack ? { lastAccessTime: timestampFromMs(now - 3 * DAY_MS), accessCount: 4n } : {}),
  });
}

/** The same as one line of `memctl import` (JSON Lines, as export writes them). */
export function provenMemoryLine(input: ProvenMemoryInput, now = Date.now()): string {
  return toJsonString(MemorySchema, provenMemory(input, now));
}
