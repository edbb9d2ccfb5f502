import { InvalidInputError } from "../errors.js";
import { applyPatch } from "../memory/apply-patch.js";
import type { MemoryPatch, MemoryRecord } from "../memory/memory.js";
import { type MemoryLimits, validateId } from "../memory/validate.js";
import type { MemoryRecords } from "../store/store.js";

/** Changes the fields a patch sets; the history entry keeps the values they replaced, so an update never loses what was there. */
export function updateMemory(store: Pick<MemoryRecords, "modify">, limits: MemoryLimits, rawId: string, patch: MemoryPatch, at: number): MemoryRecord {
  const id = validateId(rawId);
  if (Object.keys(patch).length === 0) {
    throw new InvalidInputError("update changes nothing: set at least one field besides id");
  }
  return store.modify(
    id,
    (current) => applyPatch(current, patch, at, limits),
    (current) => ({ at, action: "updated", sessionId: "", detail: JSON.stringify({ content: current.content, problem: current.problem, solution: current.solution, concepts: current.concepts, files: current.files, confidence: current.confidence, kind: current.kind }) }),
  );
}
