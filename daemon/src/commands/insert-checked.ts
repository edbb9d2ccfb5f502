import type { ContradictionWatch } from "../contradictions/contradiction-watch.js";
import type { MemoryRecord } from "../memory/memory.js";
import type { ContradictionRecord, ContradictionSource, MemoryRecords } from "../store/store.js";

/** How a new memory is stored: the history entry's detail, where it came from, and whether a likely contradiction stages it. */
export interface Insertion {
  detail: string;
  via: ContradictionSource;
  /** A memory that likely contradicts an active one is staged: a question for a person, not a fact yet. */
  stageContradicted?: boolean;
}

export interface Inserted {
  memory: MemoryRecord;
  seq: number;
  /** The likely contradictions recorded with it. */
  contradictions: ContradictionRecord[];
}

/**
 * Stores a new memory with its "created" entry, checked against the active memories for
 * contradictions: detected before the insert, recorded after it (Save, Checkpoint, the sweep).
 */
export function insertChecked(
  store: Pick<MemoryRecords, "insert">,
  contradictions: Pick<ContradictionWatch, "detect" | "record"> | undefined,
  built: MemoryRecord,
  insertion: Insertion,
): Inserted {
  const detection = contradictions?.detect(built);
  const memory = insertion.stageContradicted && detection && detection.likely.length > 0 ? { ...built, status: "staged" as const } : built;
  const seq = store.insert(memory, { at: memory.createdAt, action: "created", sessionId: memory.sessionId, detail: insertion.detail });
  const recorded = detection && contradictions ? contradictions.record(memory, detection, insertion.via) : [];
  return { memory, seq, contradictions: recorded };
}
