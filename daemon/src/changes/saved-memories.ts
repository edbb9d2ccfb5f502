import type { RecordChange } from "../store/ports/change-feed.js";

/**
 * The memories a committed batch shows saved: created together with a history entry of their
 * own. Save, Checkpoint, a captured transcript, a new vault file and a consolidation record one;
 * an import, a hub pull and a rebuild from the vault copy memories without one.
 */
export function savedMemories(changes: readonly RecordChange[]): string[] {
  const withHistory = new Set(changes.filter((c) => c.kind === "memory_event" && c.change === "created").map((c) => c.memoryId));
  return changes.filter((c) => c.kind === "memory" && c.change === "created" && withHistory.has(c.id)).map((c) => c.id);
}
