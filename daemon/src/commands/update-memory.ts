import type { ContradictionWatch } from "../contradictions/contradiction-watch.js";
import { judgedAlike } from "../contradictions/detector.js";
import { InvalidInputError } from "../errors.js";
import { applyPatch } from "../memory/apply-patch.js";
import type { MemoryPatch, MemoryRecord } from "../memory/memory.js";
import { type MemoryLimits, validateId } from "../memory/validate.js";
import type { ContradictionRecord, ContradictionSource, MemoryRecords } from "../store/store.js";

/** What Update writes with. */
export interface UpdatePorts {
  store: Pick<MemoryRecords, "modify">;
  contradictions: Pick<ContradictionWatch, "detect" | "record">;
  limits: MemoryLimits;
}

export interface Updated {
  memory: MemoryRecord;
  /** The likely contradictions recorded now: none unless the update changed what an active memory says. */
  contradictions: ContradictionRecord[];
}

/**
 * Changes the fields a patch sets; the history entry keeps the values they replaced, so an update
 * never loses what was there. When it changes what an active memory says, the memory is checked
 * for contradictions as a save is, as the newer of each pair, and is never staged for them.
 */
export function updateMemory(ports: UpdatePorts, rawId: string, patch: MemoryPatch, at: number): Updated {
  const id = validateId(rawId);
  if (Object.keys(patch).length === 0) {
    throw new InvalidInputError("update changes nothing: set at least one field besides id");
  }
  let before: MemoryRecord | undefined;
  const memory = ports.store.modify(
    id,
    (current) => {
      before = current;
      return applyPatch(current, patch, at, ports.limits);
    },
    (current) => ({ at, action: "updated", sessionId: "", detail: JSON.stringify({ content: current.content, problem: current.problem, solution: current.solution, concepts: current.concepts, files: current.files, confidence: current.confidence, kind: current.kind }) }),
  );
  return { memory, contradictions: checkEdited(ports.contradictions, before as MemoryRecord, memory, "update") };
}

/**
 * Records what an edited memory now contradicts, as the newer of each pair, when the edit changed
 * what an active memory says. Checked after the write, unlike a save: nothing depends on what is found.
 */
export function checkEdited(contradictions: Pick<ContradictionWatch, "detect" | "record">, before: MemoryRecord, after: MemoryRecord, via: ContradictionSource): ContradictionRecord[] {
  if (after.status !== "active" || judgedAlike(before, after)) return [];
  return contradictions.record(after, contradictions.detect(after, true), via);
}
