import { applyPatch } from "../memory/apply-patch.js";
import type { MemoryKind, MemoryRecord } from "../memory/memory.js";
import { buildMemory } from "../memory/new-memory.js";
import type { MemoryLimits } from "../memory/validate.js";
import type { MemoryRecords } from "../store/store.js";
import type { FileEdit } from "./file-edit.js";
import { archiveMemory } from "../commands/archive-memory.js";
import { insertChecked } from "../commands/insert-checked.js";
import { checkEdited } from "../commands/update-memory.js";
import type { ContradictionWatch } from "../contradictions/contradiction-watch.js";

/**
 * What a person's change of a vault file writes (the watcher decides which applies), each recorded
 * with provenance human and the file: an edit updates, a new file creates, a deletion archives.
 * What a person writes is checked for contradictions as an agent's Save and Update are, and never
 * staged for them.
 */
export interface VaultEditTarget {
  store: MemoryRecords;
  limits: MemoryLimits;
  contradictions: Pick<ContradictionWatch, "detect" | "record">;
}

/** Applies an edit of `relative` to the stored memory at `at`. */
export function applyFileEdit({ store, limits, contradictions }: VaultEditTarget, current: MemoryRecord, edit: Extract<FileEdit, { kind: "update" }>, relative: string, at: number): void {
  const replaced = Object.fromEntries(edit.changed.map((key) => [key, current[key as keyof MemoryRecord]]));
  let before = current;
  const memory = store.modify(
    current.id,
    (stored) => {
      before = stored;
      const next = Object.keys(edit.patch).length > 0 ? applyPatch(stored, edit.patch, at, limits) : { ...stored, updatedAt: at };
      if (edit.status === null) return next;
      return { ...next, status: edit.status.to, archiveReason: edit.status.to === "archived" ? edit.status.reason : "" };
    },
    () => ({
      at,
      action: edit.status?.to === "archived" ? "archived" : edit.status?.to === "active" && current.status === "staged" ? "promoted" : "updated",
      sessionId: "",
      detail: JSON.stringify({ provenance: "human", by: `editing ${relative} in the vault`, changed: edit.changed, replaced }),
    }),
  );
  checkEdited(contradictions, before, memory, "vault");
}

/** Makes a new memory of a file without an id at `relative` (`<project>/<kind>/<name>.md`), its project and kind from its folder unless it says otherwise. */
export function createFromFile({ store, limits, contradictions }: VaultEditTarget, relative: string, fields: Partial<MemoryRecord>, id: string, at: number): MemoryRecord {
  const [folderProject, folderKind] = relative.split("/") as [string, MemoryKind];
  const memory = buildMemory(
    {
      content: fields.content ?? "",
      kind: fields.kind ?? folderKind,
      project: fields.project ?? folderProject,
      problem: fields.problem,
      solution: fields.solution,
      concepts: fields.concepts,
      files: fields.files,
      tags: fields.tags,
      confidence: fields.confidence,
      provenance: "human",
      tier: fields.tier,
      pinned: fields.pinned,
      importance: fields.importance,
      valence: fields.valence,
      intensity: fields.intensity,
      expiresAt: fields.expiresAt,
      reviewAt: fields.reviewAt,
    },
    id,
    at,
    limits,
  );
  return insertChecked(store, contradictions, memory, { detail: JSON.stringify({ provenance: "human", by: `writing ${relative} in the vault` }), via: "vault" }).memory;
}

/** Archives the memory whose file `relative` a person deleted (never deletes it: the file comes back, archived). */
export function archiveForDeletedFile({ store }: VaultEditTarget, memory: MemoryRecord, relative: string, at: number): void {
  const reason = `its file ${relative} was deleted from the vault`;
  archiveMemory(store, memory.id, { at, reason, detail: JSON.stringify({ provenance: "human", by: `deleting ${relative} from the vault` }) });
}
