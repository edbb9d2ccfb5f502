import type { MemoryPatch, MemoryRecord } from "./memory.js";
import { redactMemory } from "./redact-memory.js";
import {
  type MemoryLimits, normalizeList, validateContent, validateImportance, validateOptionalText, validateProjectName,
  validateFutureTime, validateRange,
} from "./validate.js";

/** Validates a patch and returns the memory with it applied; fields absent from the patch are kept. */
export function applyPatch(current: MemoryRecord, patch: MemoryPatch, now: number, limits: MemoryLimits): MemoryRecord {
  const next: MemoryRecord = { ...current };
  if (patch.content !== undefined) next.content = validateContent("content", patch.content, limits);
  if (patch.kind !== undefined) next.kind = patch.kind;
  if (patch.project !== undefined) next.project = validateProjectName(patch.project);
  if (patch.problem !== undefined) next.problem = validateOptionalText("problem", patch.problem, limits);
  if (patch.solution !== undefined) next.solution = validateOptionalText("solution", patch.solution, limits);
  if (patch.concepts !== undefined) next.concepts = normalizeList("concepts", patch.concepts);
  if (patch.files !== undefined) next.files = normalizeList("files", patch.files);
  if (patch.tags !== undefined) next.tags = normalizeList("tags", patch.tags);
  if (patch.confidence !== undefined) next.confidence = validateRange("confidence", patch.confidence, 0, 1);
  if (patch.tier !== undefined) next.tier = patch.tier;
  if (patch.pinned !== undefined) next.pinned = patch.pinned;
  if (patch.importance !== undefined) next.importance = validateImportance(patch.importance);
  if (patch.valence !== undefined) next.valence = validateRange("valence", patch.valence, -1, 1);
  if (patch.intensity !== undefined) next.intensity = validateRange("intensity", patch.intensity, 0, 1);
  if (patch.expiresAt !== undefined) next.expiresAt = patch.expiresAt;
  if (patch.reviewAt !== undefined) next.reviewAt = validateFutureTime("review_time", patch.reviewAt, now);
  next.updatedAt = now;
  return redactMemory(next);
}
