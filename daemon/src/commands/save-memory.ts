import type { ContradictionWatch } from "../contradictions/contradiction-watch.js";
import type { EmbeddingRuntime } from "../embed/embedding-runtime.js";
import type { MemoryRecord } from "../memory/memory.js";
import { DUPLICATE_REASON, mergeExactDuplicate } from "../memory/merge-duplicates.js";
import { buildMemory, type NewMemoryInput } from "../memory/new-memory.js";
import type { MemoryLimits } from "../memory/validate.js";
import type { ContradictionRecord, MemoryRecords } from "../store/store.js";
import { insertChecked } from "./insert-checked.js";

/** How long a Save with waitForVector waits before answering with vectorReady = false. */
const SAVED_VECTOR_WAIT_MS = 60_000;

/** What Save and Checkpoint write with. */
export interface SavePorts {
  store: MemoryRecords;
  contradictions: Pick<ContradictionWatch, "detect" | "record">;
  /** Null when embeddings are off. */
  embeddings: Pick<EmbeddingRuntime, "waitForVector"> | null;
  newId: () => string;
  limits: MemoryLimits;
}

export interface Saved {
  /** The memory stored, or the older one it was merged into. */
  memory: MemoryRecord;
  /** The older memory it repeated; null when it was stored as new. */
  mergedInto: string | null;
  vectorReady: boolean;
  contradictions: ContradictionRecord[];
}

/**
 * Saves a memory: an exact repeat reinforces the older one instead; otherwise it is stored with
 * its contradictions recorded. With `waitForVector`, waits for its vector, and so learns whether
 * it was merged into a near-duplicate.
 */
export async function saveMemory(ports: SavePorts, input: NewMemoryInput, at: number, waitForVector: boolean): Promise<Saved> {
  const { store, embeddings } = ports;
  const built = buildMemory(input, ports.newId(), at, ports.limits);
  const merged = mergeExactDuplicate(store, built);
  if (merged) return { memory: merged, mergedInto: merged.id, vectorReady: false, contradictions: [] };
  const { memory, seq, contradictions } = insertChecked(store, ports.contradictions, built, { detail: "", via: "save" });
  const vectorReady = waitForVector && embeddings ? await embeddings.waitForVector(seq, SAVED_VECTOR_WAIT_MS) : false;
  const stored = vectorReady ? store.get(memory.id) : undefined;
  if (stored?.archiveReason === DUPLICATE_REASON && stored.supersededBy !== "") {
    const target = store.get(stored.supersededBy);
    if (target) return { memory: target, mergedInto: target.id, vectorReady, contradictions };
  }
  return { memory, mergedInto: null, vectorReady, contradictions };
}

/** Saves a session's checkpoint as it is (never merged), with its contradictions recorded. */
export function checkpointMemory(ports: Omit<SavePorts, "embeddings">, input: NewMemoryInput, at: number): { memory: MemoryRecord; contradictions: ContradictionRecord[] } {
  const built = buildMemory({ ...input, provenance: "checkpoint" }, ports.newId(), at, ports.limits);
  const { memory, contradictions } = insertChecked(ports.store, ports.contradictions, built, { detail: "checkpoint", via: "checkpoint" });
  return { memory, contradictions };
}
