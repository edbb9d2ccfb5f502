import type { MemoryRecord } from "../memory/memory.js";
import { normalizedContentHash } from "./content-hash.js";
import { codeWords, identifierTokens, textWords } from "./identifier-tokens.js";
import { compareIds } from "./id-order.js";
import { unionLists } from "./union-lists.js";

export interface DedupConfig {
  /** Similarity strictly above which two memories of the same project and kind are the same memory. */
  similarityThreshold: number;
}

export const DEFAULT_DEDUP_CONFIG: DedupConfig = Object.freeze({ similarityThreshold: 0.92 });

type Mergeable =
  | "content" | "project" | "kind" | "status" | "concepts" | "files" | "tags" | "confidence"
  | "pinned" | "tier" | "importance" | "reviewAt" | "expiresAt" | "problem" | "solution";

/** The memory about to be written (as built by buildMemory). */
export type DedupCandidate = Pick<MemoryRecord, Mergeable>;

/** A memory already stored, with its similarity to the candidate (null when it has no vector). */
export interface ExistingMemory {
  memory: Pick<MemoryRecord, Mergeable | "id" | "createdAt">;
  similarity: number | null;
}

/** How the existing memory changes when the candidate is merged into it. */
export interface MergeChanges {
  concepts: string[];
  files: string[];
  tags: string[];
  /** The stronger of the two. */
  confidence: number;
  /** What either write asked for survives the merge: pinned, core, the higher importance. */
  pinned: boolean;
  tier: "regular" | "core";
  importance: number;
  /** The earlier review date; an expiry only if both expire (the later one). */
  reviewAt: number | null;
  expiresAt: number | null;
  /** The stored memory's, or the write's where the stored one has none. */
  problem: string;
  solution: string;
  /** The write is new evidence: record a reinforcement with the writer's session and time. */
  reinforce: true;
  /** Set when a direct statement repeats a memory still staged: a person has now said it. */
  status?: "active";
}

export type DedupDecision =
  | { action: "insert" }
  | { action: "merge"; targetId: string; match: "exact" | "similar"; similarity: number | null; changes: MergeChanges };

/**
 * Decides whether a write repeats a live memory of the same project and kind: first by
 * normalized content hash (the oldest such memory wins), else by the most similar vector above
 * the threshold that names the same identifiers (sameIdentifiers). A staged candidate merged into a staged memory is also a possible
 * corroboration: the caller should run evaluateCorroboration with the writer's session.
 */
export function dedupDecision(
  candidate: DedupCandidate,
  existing: readonly ExistingMemory[],
  config: DedupConfig,
): DedupDecision {
  const live = existing.filter(
    (e) => isLive(e.memory.status) && e.memory.project === candidate.project && e.memory.kind === candidate.kind,
  );
  const hash = normalizedContentHash(candidate.content);
  const exact = live.filter((e) => normalizedContentHash(e.memory.content) === hash).sort(byAge)[0];
  if (exact !== undefined) return merge(candidate, exact, "exact");
  const similar = live
    .filter((e) => e.similarity !== null && e.similarity > config.similarityThreshold && sameIdentifiers(candidate.content, e.memory.content))
    .sort((a, b) => (b.similarity ?? 0) - (a.similarity ?? 0) || byAge(a, b))[0];
  if (similar !== undefined) return merge(candidate, similar, "similar");
  return { action: "insert" };
}

function merge(candidate: DedupCandidate, target: ExistingMemory, match: "exact" | "similar"): DedupDecision {
  const m = target.memory;
  const changes: MergeChanges = {
    concepts: unionLists([m.concepts, candidate.concepts]),
    files: unionLists([m.files, candidate.files]),
    tags: unionLists([m.tags, candidate.tags]),
    confidence: Math.max(m.confidence, candidate.confidence),
    pinned: m.pinned || candidate.pinned,
    tier: m.tier === "core" || candidate.tier === "core" ? "core" : "regular",
    importance: Math.max(m.importance, candidate.importance),
    reviewAt: m.reviewAt === null ? candidate.reviewAt : candidate.reviewAt === null ? m.reviewAt : Math.min(m.reviewAt, candidate.reviewAt),
    expiresAt: m.expiresAt === null || candidate.expiresAt === null ? null : Math.max(m.expiresAt, candidate.expiresAt),
    problem: m.problem || candidate.problem,
    solution: m.solution || candidate.solution,
    reinforce: true,
  };
  if (m.status === "staged" && candidate.status === "active") changes.status = "active";
  return { action: "merge", targetId: m.id, match, similarity: target.similarity, changes };
}

/**
 * Embeddings hardly see the identifiers a text names: "retry 3 times" and "retry 5 times", ports
 * 5432 and 5433, `ls /nonexistent-dir-xyz` and `ls /nonexistent-other-dir`, `npm test` and
 * `pnpm test` come out nearly identical. Two memories are only the same claim if each names
 * every identifier of the other (numbers, versions, ids, paths, error codes, flags, code and
 * commands; see identifier-tokens.ts): merged, the later one's could no longer be found.
 * Case and whether a word is written as code do not matter ("run `make lint`" repeats "run
 * make lint").
 */
export function sameIdentifiers(a: string, b: string): boolean {
  return namesAllOf(a, b) && namesAllOf(b, a);
}

/** Whether every identifier `source` names is a word of `text`. */
function namesAllOf(text: string, source: string): boolean {
  const words = new Set(textWords(text).map((word) => word.toLowerCase()));
  return [...identifierTokens(source), ...codeWords(source)].every((token) => words.has(token.toLowerCase()));
}

function isLive(status: MemoryRecord["status"]): boolean {
  return status === "active" || status === "staged";
}

function byAge(a: ExistingMemory, b: ExistingMemory): number {
  return a.memory.createdAt - b.memory.createdAt || compareIds(a.memory.id, b.memory.id);
}
