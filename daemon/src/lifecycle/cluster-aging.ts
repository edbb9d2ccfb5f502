import type { MemoryRecord } from "../memory/memory.js";
import { type Vector, cosineSimilarity } from "./cosine.js";
import { compareIds } from "./id-order.js";

export interface ClusterConfig {
  /** Only memories whose decay weight is below this are aging and may be consolidated. */
  agingBelow: number;
  /** Every pair in a cluster must be more similar than this. */
  similarityAbove: number;
  /** Largest cluster, so that one consolidated memory stays readable and within size limits. */
  maxClusterSize: number;
}

export const DEFAULT_CLUSTER_CONFIG: ClusterConfig = Object.freeze({
  agingBelow: 0.3,
  similarityAbove: 0.8,
  maxClusterSize: 10,
});

/** A memory offered for consolidation, with its current decay weight and its embedding. */
export interface AgingMemory {
  memory: Pick<MemoryRecord, "id" | "project" | "kind" | "status" | "pinned" | "author">;
  decayWeight: number;
  vector: Vector | null;
}

/**
 * Groups aging memories that say nearly the same thing. Eligible: the person's own, active,
 * unpinned, embedded, decay weight below the threshold. Within each (project, kind), memories are taken in id
 * order (ULIDs: creation order) and each joins the first cluster, in the order clusters were
 * started, whose every member it is more similar to than the threshold (greedy complete
 * linkage), else starts a new one. Complete linkage stops chains A~B~C from merging A with an
 * unrelated C. The result does not depend on input order; singletons are left out, and
 * clusters are ordered by their first id.
 */
export function clusterAgingMemories<T extends AgingMemory>(items: readonly T[], config: ClusterConfig): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const m = item.memory;
    if (m.status !== "active" || m.pinned || item.vector === null || !(item.decayWeight < config.agingBelow)) continue;
    // Another person's memory is theirs to consolidate: merged here, their words would pass for this person's.
    if (m.author !== "") continue;
    // JSON keeps (project, kind) pairs distinct whatever characters a project name holds.
    const key = JSON.stringify([m.project, m.kind]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  const clusters: T[][] = [];
  for (const group of groups.values()) clusters.push(...clusterGroup(group, config));
  return clusters.filter((c) => c.length > 1).sort((a, b) => compareIds(a[0]!.memory.id, b[0]!.memory.id));
}

function clusterGroup<T extends AgingMemory>(group: readonly T[], config: ClusterConfig): T[][] {
  const clusters: T[][] = [];
  for (const item of [...group].sort((a, b) => compareIds(a.memory.id, b.memory.id))) {
    const home = clusters.find(
      (c) => c.length < config.maxClusterSize && c.every((member) => similar(member, item, config.similarityAbove)),
    );
    if (home === undefined) clusters.push([item]);
    else home.push(item);
  }
  return clusters;
}

function similar(a: AgingMemory, b: AgingMemory, threshold: number): boolean {
  return a.vector !== null && b.vector !== null && cosineSimilarity(a.vector, b.vector) > threshold;
}
