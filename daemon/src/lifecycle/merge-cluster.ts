import { OWN } from "../memory/author.js";
import type { MemoryRecord } from "../memory/memory.js";
import { decayAnchor } from "./decay.js";
import { compareIds } from "./id-order.js";
import { mergeSentences } from "./sentence-merge.js";
import { unionLists } from "./union-lists.js";

/** Recorded as the source agent of memories that consolidation writes. */
export const CONSOLIDATION_AGENT = "memd";

/** A cluster member and the time it was last reinforced (null: never since creation). */
export interface ClusterMember {
  memory: MemoryRecord;
  lastReinforcedAt: number | null;
}

/** An original to archive, linked to the memory that replaces it. */
export interface ConsolidationArchive {
  id: string;
  archiveReason: "consolidated";
  supersededBy: string;
}

export interface Consolidation {
  memory: MemoryRecord;
  /**
   * The latest reinforcement among the originals: record it for the new memory, so that
   * consolidating neither resets nor loses the evidence behind them.
   */
  lastReinforcedAt: number;
  archive: ConsolidationArchive[];
}

/**
 * Folds a cluster (same project and kind) into one memory. Members are read oldest first:
 * content, problem and solution keep each sentence once in first-seen order; concepts, files
 * and tags are unioned; confidence, importance and intensity take the strongest; createdAt the
 * earliest; access counts add up. The originals are archived, never deleted.
 */
export function mergeCluster(members: readonly ClusterMember[], now: number, id: string): Consolidation {
  const ordered = [...members].sort(
    (a, b) => a.memory.createdAt - b.memory.createdAt || compareIds(a.memory.id, b.memory.id),
  );
  const first = ordered[0]?.memory;
  if (first === undefined) throw new Error("mergeCluster needs at least one memory");
  const all = ordered.map((m) => m.memory);
  if (all.some((m) => m.project !== first.project || m.kind !== first.kind)) {
    throw new Error(`mergeCluster mixes projects or kinds; cluster by (project, kind) first (${first.id})`);
  }
  const mostConfident = strongest(all, (m) => m.confidence);
  const mostIntense = strongest(all, (m) => m.intensity);
  const memory: MemoryRecord = {
    id,
    content: mergeSentences(all.map((m) => m.content)),
    kind: first.kind,
    project: first.project,
    problem: mergeSentences(all.map((m) => m.problem)),
    solution: mergeSentences(all.map((m) => m.solution)),
    concepts: unionLists(all.map((m) => m.concepts)),
    files: unionLists(all.map((m) => m.files)),
    tags: unionLists(all.map((m) => m.tags)),
    confidence: mostConfident.confidence,
    provenance: mostConfident.provenance,
    tier: all.some((m) => m.tier === "core") ? "core" : "regular",
    status: "active",
    pinned: all.some((m) => m.pinned),
    importance: Math.max(...all.map((m) => m.importance)),
    valence: mostIntense.valence,
    intensity: mostIntense.intensity,
    sessionId: "",
    sourceAgent: CONSOLIDATION_AGENT,
    createdAt: first.createdAt,
    updatedAt: now,
    lastAccessedAt: latest(all.map((m) => m.lastAccessedAt)),
    // Expiry only survives if every original expires: one open-ended member keeps the fact open-ended.
    expiresAt: all.some((m) => m.expiresAt === null) ? null : latest(all.map((m) => m.expiresAt)),
    // The earliest review wins: if any original needed a look by then, so does the merge.
    reviewAt: earliest(all.map((m) => m.reviewAt)),
    accessCount: all.reduce((sum, m) => sum + m.accessCount, 0),
    supersedes: "",
    supersededBy: "",
    // Only the person's own memories are consolidated (cluster-aging.ts): the merge is theirs.
    ...OWN,
    archiveReason: "",
    invalidAt: null,
  };
  return {
    memory,
    lastReinforcedAt: Math.max(...ordered.map((m) => decayAnchor(m.memory, m.lastReinforcedAt))),
    archive: all.map((m) => ({ id: m.id, archiveReason: "consolidated", supersededBy: id })),
  };
}

/** The member with the highest value; the oldest on ties (members arrive oldest first). */
function strongest(all: readonly MemoryRecord[], value: (m: MemoryRecord) => number): MemoryRecord {
  return all.reduce((best, m) => (value(m) > value(best) ? m : best));
}

function latest(times: readonly (number | null)[]): number | null {
  const known = times.filter((t): t is number => t !== null);
  return known.length === 0 ? null : Math.max(...known);
}

function earliest(times: readonly (number | null)[]): number | null {
  const known = times.filter((t): t is number => t !== null);
  return known.length === 0 ? null : Math.min(...known);
}
