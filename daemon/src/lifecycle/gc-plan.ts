import type { MemoryRecord } from "../memory/memory.js";
import { type Vector, cosineSimilarity } from "./cosine.js";
import { sameIdentifiers } from "./dedup.js";
import { compareIds } from "./id-order.js";
import { DEFAULT_PROMOTION_CONFIG, stagedExpiry } from "./promotion.js";

export interface GcConfig {
  /** Memories whose decay weight is below this are archived (pinned ones never). */
  decayedBelow: number;
  /** Live memories of the same project and kind more similar than this, naming the same identifiers, are duplicates. */
  duplicateAbove: number;
  /** Staged memories older than this, still uncorroborated, are archived. */
  stagedMaxAgeMs: number;
}

export const DEFAULT_GC_CONFIG: GcConfig = Object.freeze({
  decayedBelow: 0.1,
  duplicateAbove: 0.95,
  stagedMaxAgeMs: DEFAULT_PROMOTION_CONFIG.stagedMaxAgeMs,
});

/** A memory offered to GC with its current decay weight and its embedding (null: not embedded). */
export interface GcCandidate {
  memory: Pick<MemoryRecord, "id" | "content" | "project" | "kind" | "status" | "pinned" | "expiresAt" | "createdAt" | "accessCount">;
  decayWeight: number;
  vector: Vector | null;
}

export type GcReason = "expired" | "decayed" | "staged-stale" | "duplicate";

export interface GcArchive {
  id: string;
  reason: GcReason;
  /** For duplicates, the memory kept in its place. */
  duplicateOf: string | null;
}

/**
 * Which memories to archive, and why; nothing is ever deleted. Only active and staged memories
 * are considered, so applying the plan and planning again yields nothing. Reasons, first match
 * wins: expired (expiresAt <= now, even if pinned: an end date is more specific than a pin),
 * decayed (weight below the threshold, pinned exempt), staged too long without corroboration,
 * then duplicate. Duplicates are resolved greedily: survivors are taken pinned first, then
 * active before staged, then most accessed, then oldest, then by id; each is archived if it is
 * a near-duplicate of one already kept (and names the same identifiers), so the survivors never contain a duplicate pair (except
 * two pinned memories, which are both kept). Cost is quadratic within each (project, kind).
 * Results are ordered by id.
 */
export function planGc(items: readonly GcCandidate[], now: number, config: GcConfig): GcArchive[] {
  const archive: GcArchive[] = [];
  const remaining: GcCandidate[] = [];
  for (const item of items) {
    const m = item.memory;
    if (m.status !== "active" && m.status !== "staged") continue;
    const reason = lapseReason(item, now, config);
    if (reason === null) remaining.push(item);
    else archive.push({ id: m.id, reason, duplicateOf: null });
  }
  archive.push(...planDuplicates(remaining, config.duplicateAbove));
  return archive.sort((a, b) => compareIds(a.id, b.id));
}

function lapseReason(item: GcCandidate, now: number, config: GcConfig): GcReason | null {
  const m = item.memory;
  if (m.expiresAt !== null && m.expiresAt <= now) return "expired";
  if (!m.pinned && item.decayWeight < config.decayedBelow) return "decayed";
  if (stagedExpiry(m, now, config).archive) return "staged-stale";
  return null;
}

function planDuplicates(items: readonly GcCandidate[], threshold: number): GcArchive[] {
  const kept = new Map<string, GcCandidate[]>();
  const archive: GcArchive[] = [];
  for (const item of [...items].sort(keeperFirst)) {
    if (item.vector === null) continue;
    const key = JSON.stringify([item.memory.project, item.memory.kind]);
    const group = kept.get(key) ?? [];
    kept.set(key, group);
    const original = item.memory.pinned ? undefined : group.find((k) => isDuplicate(k, item, threshold));
    if (original === undefined) group.push(item);
    else archive.push({ id: item.memory.id, reason: "duplicate", duplicateOf: original.memory.id });
  }
  return archive;
}

/** Near in meaning and naming the same identifiers: two failed commands on different paths are two memories. */
function isDuplicate(a: GcCandidate, b: GcCandidate, threshold: number): boolean {
  return a.vector !== null && b.vector !== null && cosineSimilarity(a.vector, b.vector) > threshold && sameIdentifiers(a.memory.content, b.memory.content);
}

/** The order in which duplicates claim survival: the one earlier in this order is kept. */
function keeperFirst(a: GcCandidate, b: GcCandidate): number {
  const x = a.memory;
  const y = b.memory;
  return (
    Number(y.pinned) - Number(x.pinned) ||
    Number(y.status === "active") - Number(x.status === "active") ||
    y.accessCount - x.accessCount ||
    x.createdAt - y.createdAt ||
    compareIds(x.id, y.id)
  );
}
