import { InvalidInputError } from "../errors.js";
import { GLOBAL_PROJECT, type MemoryRecord } from "./memory.js";
import { redactMemory } from "./redact-memory.js";
import {
  type MemoryLimits, normalizeList, validateContent, validateImportance, validateOptionalText, validateProjectName,
  validateRange, validateUlid,
} from "./validate.js";

export type ImportedFields = Omit<MemoryRecord, "createdAt" | "updatedAt"> & {
  createdAt: number | null;
  updatedAt: number | null;
};

/**
 * Checks a memory brought in by Import. Every field is kept exactly as exported (that is what
 * makes export then import lossless); only values no memd could have written are refused.
 */
export function validateImported(m: ImportedFields, limits: MemoryLimits): MemoryRecord {
  validateUlid(m.id);
  if (m.createdAt === null) throw new InvalidInputError(`memory ${m.id} has no create_time`);
  // The links of a chain of corrections, which Supersede and History follow: each names another memory.
  for (const [field, linked] of [["supersedes", m.supersedes], ["superseded_by", m.supersededBy]] as const) {
    if (linked === "") continue;
    validateUlid(linked, field);
    if (linked === m.id) throw new InvalidInputError(`memory ${m.id} names itself in ${field}: a memory cannot correct itself`);
  }
  if (m.status === "superseded" && m.supersededBy === "") {
    throw new InvalidInputError(`memory ${m.id} is superseded but names no superseded_by: give the id of the memory that replaced it, or another status`);
  }
  validateContent("content", m.content, limits);
  validateOptionalText("problem", m.problem, limits);
  validateOptionalText("solution", m.solution, limits);
  // Memories from other tools may come without a project: they are user-wide.
  const project = m.project.trim() === "" ? GLOBAL_PROJECT : validateProjectName(m.project);
  validateRange("confidence", m.confidence, 0, 1);
  validateImportance(m.importance);
  validateRange("valence", m.valence, -1, 1);
  validateRange("intensity", m.intensity, 0, 1);
  if (!Number.isSafeInteger(m.accessCount) || m.accessCount < 0) {
    throw new InvalidInputError(`memory ${m.id} has an invalid access_count ${m.accessCount}`);
  }
  return redactMemory({
    ...m,
    project,
    concepts: normalizeList("concepts", m.concepts),
    files: normalizeList("files", m.files),
    tags: normalizeList("tags", m.tags),
    createdAt: m.createdAt,
    updatedAt: m.updatedAt ?? m.createdAt,
  });
}
