import { DEFAULT_DEDUP_CONFIG, type DedupDecision, dedupDecision, sameIdentifiers } from "../lifecycle/dedup.js";
import { DEFAULT_PROMOTION_CONFIG, evaluateCorroboration } from "../lifecycle/promotion.js";
import type { Logger } from "../logger.js";
import type { MemoryFilter, MemoryRecords, ScoredMemory } from "../store/store.js";
import type { VectorStore } from "../store/vector-store.js";
import { localProjects, type MemoryRecord } from "./memory.js";
import { archiveMemory } from "../commands/archive-memory.js";

/** Why a memory was archived when it turned out to repeat an older one. */
export const DUPLICATE_REASON = "duplicate";

/** The write being merged: who wrote it, when, and how close it is to the target. */
interface Observer {
  sessionId: string;
  project: string;
  at: number;
  similarity: number;
  detail: string;
}

/**
 * Exact duplicates (same normalised content, project and kind) are not stored twice: the
 * existing memory is reinforced and takes the union of concepts, files and tags. When it is
 * staged, the repeat is an observation: from another session it corroborates, and may promote.
 */
export function mergeExactDuplicate(store: MemoryRecords, candidate: MemoryRecord): MemoryRecord | null {
  // Every status, project and kind: dedupDecision keeps the live ones of the same project and kind.
  const existing = store.withSameContent(candidate.content);
  const decision = dedupDecision(candidate, existing.map((memory) => ({ memory, similarity: null })), DEFAULT_DEDUP_CONFIG);
  if (decision.action !== "merge") return null;
  const observer = { sessionId: candidate.sessionId, project: candidate.project, at: candidate.createdAt, similarity: 1 };
  return reinforce(store, decision, { ...observer, detail: "the same content was saved again" });
}

/** What happened to a memory once its vector showed what it is close to. */
export interface SimilarOutcome {
  /** The older memory it was merged into (and archived under), if it repeated one. */
  mergedInto: string | null;
  /** Staged memories it corroborated (from another session), some perhaps promoted. */
  corroborated: string[];
}

/**
 * Runs when a new memory's vector is stored: a near-identical older memory of the same project
 * and kind (similarity above the dedup threshold) absorbs it, and the new one is archived with
 * a link; otherwise it counts as an observation for the staged memories it matches. Only the
 * later memory is ever merged into the earlier, so the decision is the same whichever vector
 * arrives first.
 */
function mergeSimilar(
  store: MemoryRecords,
  memory: MemoryRecord,
  neighbours: readonly ScoredMemory[],
  at: number,
  keepApart: (newer: MemoryRecord, older: MemoryRecord) => boolean = () => false,
): SimilarOutcome {
  const outcome: SimilarOutcome = { mergedInto: null, corroborated: [] };
  if (memory.status !== "active" && memory.status !== "staged") return outcome;
  const older = neighbours.filter((n) => n.memory.id !== memory.id && isOlder(n.memory, memory));
  // "Auth is Clerk" and "auth is Auth0" are close in meaning and say opposite things: never one memory.
  const decision = dedupDecision(
    memory,
    older.filter((n) => !keepApart(memory, n.memory)).map((n) => ({ memory: n.memory, similarity: n.score })),
    DEFAULT_DEDUP_CONFIG,
  );
  if (decision.action === "merge") {
    const similarity = decision.similarity ?? 1;
    const detail = `a memory nearly identical in meaning was saved (${memory.id}, similarity ${similarity.toFixed(3)})`;
    reinforce(store, decision, { sessionId: memory.sessionId, project: memory.project, at, similarity, detail });
    archiveMemory(store, memory.id, { at, reason: DUPLICATE_REASON, supersededBy: decision.targetId, detail: `merged into ${decision.targetId} (similarity ${similarity.toFixed(3)})` });
    outcome.mergedInto = decision.targetId;
  }
  // The write is evidence for every staged memory it matches, not only the one it may have merged into.
  for (const staged of older) {
    if (staged.memory.status !== "staged" || staged.memory.id === outcome.mergedInto) continue;
    // "Retry 3 times" does not confirm "retry 5 times", nor a failed `ls /a` one of `ls /b`, however close the vectors are.
    if (!sameIdentifiers(memory.content, staged.memory.content)) continue;
    const observer = { sessionId: memory.sessionId, project: memory.project, at, similarity: staged.score };
    if (corroborate(store, staged.memory.id, { ...observer, detail: `corroborated by ${memory.id} (similarity ${staged.score.toFixed(3)})` })) {
      outcome.corroborated.push(staged.memory.id);
    }
  }
  return outcome;
}


/** How many nearest memories a newly embedded one is compared with for dedup and corroboration. */
const DEDUP_NEIGHBOURS = 10;

/** The memories nearest in meaning to a stored one (itself left out), best first; score is cosine. */
export type NeighboursOf = (memorySeq: number, filter: MemoryFilter, limit: number) => ScoredMemory[];

/** What contradiction detection does with a newly embedded memory's neighbours (see ContradictionWatch). */
export interface NeighbourContradictions {
  /** Whether two memories likely contradict: such a pair is never merged as duplicates. */
  contradicts(newer: MemoryRecord, older: MemoryRecord): boolean;
  /** Judges the neighbours a memory was not merged into. */
  checkNeighbours(memory: MemoryRecord, neighbours: readonly ScoredMemory[]): void;
}

/**
 * Dedup on write by meaning, and corroboration of staged memories, once new memories' vectors
 * exist. Only new writes, once (the store's pending list): not imports, which are restored
 * exactly as exported, and not re-embeddings. Oldest first, so that within a batch a repeat
 * merges into the memory it repeats.
 */
export function mergeNewlyEmbedded(
  store: MemoryRecords,
  vectors: Pick<VectorStore, "memoriesBySeq">,
  neighboursOf: NeighboursOf,
  memorySeqs: readonly number[],
  at: number,
  logger: Logger,
  contradictions?: NeighbourContradictions,
): void {
  for (const seq of store.takeDedupPending(memorySeqs).sort((a, b) => a - b)) {
    const [found] = vectors.memoriesBySeq([seq]);
    const memory = found && store.get(found.memory.id);
    if (!memory) continue;
    const filter = { projects: localProjects(memory.project), kinds: [], statuses: ["active", "staged"] as const };
    const neighbours = neighboursOf(seq, filter, DEDUP_NEIGHBOURS);
    const outcome = mergeSimilar(store, memory, neighbours, at, contradictions && ((newer, older) => contradictions.contradicts(newer, older)));
    if (!outcome.mergedInto) contradictions?.checkNeighbours(memory, neighbours);
    if (outcome.mergedInto) logger.info({ memory: memory.id, mergedInto: outcome.mergedInto }, "merged a near-duplicate");
    if (outcome.corroborated.length > 0) logger.info({ memory: memory.id, corroborated: outcome.corroborated }, "corroborated staged memories");
  }
}

function reinforce(store: MemoryRecords, decision: Extract<DedupDecision, { action: "merge" }>, observer: Observer): MemoryRecord {
  return store.modify(
    decision.targetId,
    (current) => {
      const { reinforce: _, status, ...merged } = decision.changes;
      const next: MemoryRecord = { ...current, ...merged, status: status ?? current.status, updatedAt: observer.at };
      if (current.status === "staged" && !status) Object.assign(next, verdictFor(store, current, observer).promotion ?? {});
      return next;
    },
    () => ({ at: observer.at, action: "reinforced", sessionId: observer.sessionId, detail: observer.detail }),
  );
}

/** Records a corroboration of a staged memory when the promotion rules count it; says whether they did. */
function corroborate(store: MemoryRecords, stagedId: string, observer: Observer): boolean {
  const current = store.get(stagedId);
  if (!current) return false;
  const verdict = verdictFor(store, current, observer);
  if (!verdict.counts) return false;
  const { promotion } = verdict;
  store.modify(
    stagedId,
    (m) => (promotion ? { ...m, ...promotion, updatedAt: observer.at } : m),
    () => ({ at: observer.at, action: "reinforced", sessionId: observer.sessionId, detail: observer.detail }),
  );
  return true;
}

function verdictFor(store: MemoryRecords, staged: MemoryRecord, observer: Observer) {
  const corroborating = store.events([staged.id]).filter((e) => e.action === "reinforced").map((e) => e.sessionId);
  return evaluateCorroboration(
    { ...staged, corroboratingSessions: corroborating },
    { via: "write", sessionId: observer.sessionId, project: observer.project, similarity: observer.similarity, at: observer.at },
    DEFAULT_PROMOTION_CONFIG,
  );
}

function isOlder(a: MemoryRecord, b: MemoryRecord): boolean {
  return a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
}
