import { FailedPreconditionError } from "../errors.js";
import { DEFAULT_PROMOTION_CONFIG } from "../lifecycle/promotion.js";
import type { MemoryKind, MemoryRecord, Provenance } from "./memory.js";
import { buildMemory } from "./new-memory.js";
import type { MemoryLimits } from "./validate.js";

export interface Correction {
  content: string;
  reason: string;
  kind?: MemoryKind;
  concepts: readonly string[];
  files: readonly string[];
  sessionId: string;
  sourceAgent: string;
  provenance?: Provenance;
}

/**
 * A correction never overwrites: the new claim is a new memory that points back, and the old
 * one is marked superseded with the time it stopped holding. Only a current claim (active or
 * staged) can be superseded, so a chain never forks. `currentClaimId` is the end of the chain
 * an outdated claim belongs to, so that the refusal names the claim to correct.
 */
export function supersedeMemory(
  old: MemoryRecord,
  correction: Correction,
  newId: string,
  now: number,
  limits: MemoryLimits,
  currentClaimId: string = old.supersededBy,
) {
  if (old.status === "superseded") {
    throw new FailedPreconditionError(
      `memory ${old.id} was already superseded (by ${old.supersededBy}); the current claim is ${currentClaimId}: supersede that one instead`,
    );
  }
  if (old.status === "archived") {
    throw new FailedPreconditionError(`memory ${old.id} is archived; save a new memory instead of superseding it`);
  }
  const built = buildMemory(
    {
      content: correction.content,
      kind: correction.kind ?? old.kind,
      project: old.project,
      concepts: correction.concepts.length > 0 ? correction.concepts : old.concepts,
      files: correction.files.length > 0 ? correction.files : old.files,
      tags: old.tags,
      provenance: correction.provenance ?? "save",
      importance: old.importance,
      pinned: old.pinned,
      sessionId: correction.sessionId,
      sourceAgent: correction.sourceAgent,
    },
    newId,
    now,
    limits,
  );
  // A correction of a confirmed claim is itself a claim someone made: it starts active.
  const next: MemoryRecord = { ...built, status: "active", supersedes: old.id };
  const superseded: MemoryRecord = {
    ...old,
    status: "superseded",
    supersededBy: newId,
    invalidAt: now,
    updatedAt: now,
  };
  return { next, old: superseded };
}

/**
 * A contradiction was settled for `winnerId`, a memory already stored: the loser is superseded by
 * it, as a correction would supersede it, without a new memory. Only a current claim can lose.
 */
export function supersededBy(loser: MemoryRecord, winnerId: string, now: number): MemoryRecord {
  if (loser.status !== "active" && loser.status !== "staged") {
    throw new FailedPreconditionError(`memory ${loser.id} is ${loser.status}: the contradiction no longer holds, and there is nothing to settle`);
  }
  return { ...loser, status: "superseded", supersededBy: winnerId, invalidAt: now, updatedAt: now };
}

/** The memory kept when a contradiction was settled points back at the one it replaced, unless it already replaced another. */
export function supersedesLoser(winner: MemoryRecord, loserId: string, now: number): MemoryRecord {
  if (winner.status !== "active" && winner.status !== "staged") {
    throw new FailedPreconditionError(`memory ${winner.id} is ${winner.status}: keep the other memory, or archive both`);
  }
  // A staged memory kept over an active one has been confirmed by the person who chose it.
  return { ...winner, status: "active", supersedes: winner.supersedes === "" ? loserId : winner.supersedes, updatedAt: now };
}

/** A person confirmed a staged memory. */
export function promoteMemory(memory: MemoryRecord, now: number): MemoryRecord {
  if (memory.status !== "staged") {
    throw new FailedPreconditionError(`memory ${memory.id} is ${memory.status}, not staged: only staged memories can be promoted`);
  }
  return {
    ...memory,
    status: "active",
    confidence: Math.max(memory.confidence, DEFAULT_PROMOTION_CONFIG.promotedConfidence),
    updatedAt: now,
  };
}

/** A person said a staged memory is wrong: it is archived, never deleted. */
export function rejectMemory(memory: MemoryRecord, reason: string, now: number): MemoryRecord {
  if (memory.status !== "staged") {
    throw new FailedPreconditionError(`memory ${memory.id} is ${memory.status}, not staged: archive it instead`);
  }
  return { ...memory, status: "archived", archiveReason: reason.trim() || "rejected", updatedAt: now };
}

/** A person said an archived memory still holds: it is active again, its archive reason cleared. */
export function restoreMemory(memory: MemoryRecord, now: number): MemoryRecord {
  if (memory.status !== "archived") {
    throw new FailedPreconditionError(`memory ${memory.id} is ${memory.status}, not archived: only archived memories can be restored`);
  }
  return { ...memory, status: "active", archiveReason: "", updatedAt: now };
}
