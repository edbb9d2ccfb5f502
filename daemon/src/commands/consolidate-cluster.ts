import type { Consolidation } from "../lifecycle/merge-cluster.js";
import type { MemoryRecord } from "../memory/memory.js";
import type { MemoryRecords } from "../store/store.js";
import { archiveMemory } from "./archive-memory.js";

/**
 * Stores the memory a cluster was merged into (`memory`: the merge, or the model's summary of
 * it), carries the members' latest reinforcement over to it, and archives each member pointing
 * at it. `how` says how it was written, for the history.
 */
export function consolidateCluster(store: Pick<MemoryRecords, "insert" | "modify">, merged: Consolidation, memory: MemoryRecord, how: string, at: number): void {
  store.insert(memory, { at, action: "created", sessionId: "", detail: `consolidates ${merged.archive.map((a) => a.id).join(", ")} (${how})` });
  // The merge keeps its oldest member's creation time: without this its decay clock would go back
  // to that creation and lose the later writes and repeats behind the members.
  if (merged.lastReinforcedAt > merged.memory.createdAt) {
    store.modify(merged.memory.id, (m) => m, () => ({ at: merged.lastReinforcedAt, action: "reinforced", sessionId: "", detail: "carried over from the memories it consolidates" }));
  }
  for (const original of merged.archive) {
    archiveMemory(store, original.id, { at, reason: original.archiveReason, supersededBy: original.supersededBy, detail: `consolidated into ${original.supersededBy}` });
  }
}
