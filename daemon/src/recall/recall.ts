import { InvalidInputError, NotFoundError } from "../errors.js";
import type { EmbeddingRuntime } from "../embed/embedding-runtime.js";
import { localProjects, type MemoryKind, type MemoryRecord } from "../memory/memory.js";
import { unlessLocked } from "../store/database-locked.js";
import type { MemoryStore } from "../store/store.js";
import { extractEntities } from "./entities.js";
import { type Explanation, hybridSearch } from "./hybrid-search.js";
import { fitBudget, itemTokens, summarize } from "./recall-budget.js";

export interface RecallInput {
  query: string;
  project: string | undefined;
  excludeGlobal: boolean;
  kinds: readonly MemoryKind[];
  depth: number;
  limit: number;
  maxTokens: number;
  ids: readonly string[];
  now: number;
  /** How long to wait for the query's embedding before matching without vectors (see hybridSearch). */
  vectorWaitMs?: number;
}

export interface RecalledItem {
  memory: MemoryRecord;
  summary: string;
  score: number;
  associated: boolean;
  explanation: Explanation | undefined;
}

export interface RecallResult {
  items: RecalledItem[];
  depth: number;
  tokens: number;
  truncated: boolean;
  /** Why the matches were found without vectors; empty when they took part (see hybridSearch). */
  vectorsSkipped: string;
}

const MAX_LIMIT = 50;
const DEFAULT_LIMIT = 5;
/** Matches are fetched beyond the limit so that the token budget can pick smaller ones. */
const PREFETCH = 50;
/** How many of the best matches association spreads from, and how many it may add. */
const ASSOCIATE_FROM = 3;
const ASSOCIATE_MAX = 3;

/**
 * Recall in three depths. 1 (recognition) answers with one-line summaries; 2 (recall) with
 * whole memories, either the best matches or the ids picked from a depth-1 answer; 3
 * (association) adds memories related to the best matches through shared entities and
 * nearby vectors. Memories read in full (depth 2 and 3) are recorded as accessed.
 */
export async function recall(store: MemoryStore, embeddings: EmbeddingRuntime | null, input: RecallInput): Promise<RecallResult> {
  const depth = input.depth === 0 ? 1 : input.depth;
  if (!Number.isInteger(depth) || depth < 1 || depth > 3) throw new InvalidInputError(`depth must be 1, 2 or 3, got ${input.depth}`);
  const limit = input.limit === 0 ? DEFAULT_LIMIT : input.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new InvalidInputError(`limit must be between 1 and ${MAX_LIMIT}, got ${input.limit}`);
  if (!Number.isInteger(input.maxTokens) || input.maxTokens < 0) {
    throw new InvalidInputError(`max_tokens must be 0 (no budget) or a positive number of tokens, got ${input.maxTokens}`);
  }

  let items: RecalledItem[];
  let vectorsSkipped = "";
  if (input.ids.length > 0) {
    items = input.ids.map((id) => {
      const memory = store.get(id);
      if (!memory) throw new NotFoundError(`no memory has id ${id}`);
      return { memory, summary: summarize(memory.content), score: 0, associated: false, explanation: undefined };
    });
  } else {
    if (input.query.trim() === "") throw new InvalidInputError("query is empty: say what to recall, or pass ids from an earlier answer");
    const matches = await hybridSearch(store, embeddings, {
      query: input.query,
      project: input.project,
      excludeGlobal: input.excludeGlobal,
      filter: { kinds: input.kinds, statuses: ["active"] },
      limit: PREFETCH,
      now: input.now,
      vectorWaitMs: input.vectorWaitMs,
    });
    vectorsSkipped = matches.vectorsSkipped;
    items = matches.results.map((m) => ({ memory: m.memory, summary: summarize(m.memory.content), score: m.score, associated: false, explanation: m.explanation }));
  }

  const full = depth >= 2;
  const cost = (item: RecalledItem) =>
    itemTokens(full ? [item.memory.content, item.memory.problem, item.memory.solution].join(" ") : item.summary);
  const matched = fitBudget(items, cost, limit, input.maxTokens);
  let kept = matched.kept;
  let tokens = matched.tokens;
  let truncated = matched.truncated;

  if (depth === 3 && kept.length > 0) {
    const associated = associate(store, embeddings, kept, input).map((a) => ({ ...a, associated: true }));
    const room = fitBudget(associated, cost, ASSOCIATE_MAX, input.maxTokens > 0 ? input.maxTokens - tokens : 0);
    kept = [...kept, ...room.kept];
    tokens += room.tokens;
    truncated ||= room.truncated && room.kept.length < ASSOCIATE_MAX;
  }
  // Access counts only tune decay: while another process holds the write lock they are skipped.
  if (full) unlessLocked(() => store.recordAccess(kept.map((item) => item.memory.id), input.now));
  return { items: kept, depth, tokens, truncated, vectorsSkipped };
}

/** Spreading activation from the best matches: shared entities first, then nearby vectors. */
function associate(store: MemoryStore, embeddings: EmbeddingRuntime | null, matches: readonly RecalledItem[], input: RecallInput): RecalledItem[] {
  const seeds = matches.slice(0, ASSOCIATE_FROM).map((item) => item.memory);
  const taken = new Set(matches.map((item) => item.memory.id));
  const projects = localProjects(input.project, input.excludeGlobal);
  const keys = [...new Set(seeds.flatMap((memory) => extractEntities(memory).map((entity) => entity.key)))];
  const graphHits = store.searchGraph({ keys, projects, statuses: ["active"], limit: ASSOCIATE_MAX * 3, hopFrom: 0, hopEntities: 0, hopDiscount: 0 });
  const read = store.memoriesBySeq(graphHits.map((hit) => hit.seq));
  const graph = graphHits.flatMap((hit) => {
    const memory = read.get(hit.seq);
    return memory ? [{ memory, score: hit.score }] : [];
  });
  const seeded = seeds.map((memory) => store.seqOf(memory.id)).filter((seq): seq is number => seq !== undefined);
  const near = embeddings ? embeddings.similarTo(seeded, { projects, kinds: input.kinds, statuses: ["active"] }, ASSOCIATE_MAX * 3) : [];
  const out: RecalledItem[] = [];
  for (const hit of [...graph, ...near]) {
    if (taken.has(hit.memory.id) || (input.kinds.length > 0 && !input.kinds.includes(hit.memory.kind))) continue;
    taken.add(hit.memory.id);
    out.push({ memory: hit.memory, summary: summarize(hit.memory.content), score: 0, associated: true, explanation: undefined });
  }
  return out;
}
