import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  MemoryService, SearchMode, type SearchRequest, type SearchResponseSchema, type UpdateRequest,
} from "../../../gen/memd/v1/memory_service_pb.js";
import { InvalidInputError, NotFoundError, UnavailableError } from "../errors.js";
import { withAuthor } from "../memory/author.js";
import { GLOBAL_PROJECT, type MemoryPatch, type MemoryStatus, localProjects } from "../memory/memory.js";
import type { InjectionTally } from "../injections/injection.js";
import { recallReason, recalledText } from "../injections/recalled-text.js";
import { hybridSearch } from "../recall/hybrid-search.js";
import { vectorWaitMs } from "../recall/vector-wait.js";
import { recall } from "../recall/recall.js";
import { validateId } from "../memory/validate.js";
import { within } from "../within.js";
import type { MemoryFilter } from "../store/store.js";
import {
  kindFromPb, kindsFromPb, kindToPb, memoryToPb, provenanceFromPb, statusesFromPb, tierFromPb, timeFromPb, timeToPb,
} from "./convert.js";
import { logVectorsSkipped } from "./context.js";
import { contradictionToPb } from "./contradiction-convert.js";
import { boundedCount } from "./bounded-count.js";
import type { ServiceDeps } from "./deps.js";
import { healthStatus } from "./health.js";
import { rulesDueForReview } from "./review.js";
import { syncSkillProposals } from "./skill-service.js";
import { briefSession, suggestPointers } from "./suggest.js";
import { injectionCaller } from "./injection-caller.js";
import { decodePageToken, encodePageToken } from "./page-token.js";
import { claimChain } from "../memory/claim-chain.js";
import { archiveOnRequest, restoreArchived } from "../commands/archive-memory.js";
import { promoteStaged, rejectStaged } from "../commands/review-staged.js";
import { checkpointMemory, saveMemory } from "../commands/save-memory.js";
import { supersedeClaim } from "../commands/supersede-memory.js";
import { updateMemory } from "../commands/update-memory.js";
import { namedProjectFilter } from "./project-resolver.js";

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;
const DEFAULT_SEARCH_LIMIT = 10;
/** Graph: the memories of a project drawn by default, and at most. */
const DEFAULT_GRAPH_MEMORIES = 200;
const MAX_GRAPH_MEMORIES = 1000;
const MAX_SEARCH_LIMIT = 100;
const DEFAULT_STATUSES: readonly MemoryStatus[] = ["active"];
/** The changes that take a memory out of use: History marks how often it had been injected before each. */
const RETIRING_ACTIONS = new Set(["archived", "superseded", "rejected"]);

export function createMemoryService(deps: ServiceDeps): ServiceImpl<typeof MemoryService> {
  const { store, now } = deps;

  const getOrThrow = (rawId: string) => {
    const id = validateId(rawId);
    const memory = store.get(id);
    if (!memory) throw new NotFoundError(`no memory has id ${id}`);
    return memory;
  };

  /** Search in the requested mode; `timing` gathers the wait for the query's embedding and the search work done during it. */
  async function search(req: SearchRequest, timing: SearchTiming, context: HandlerContext): Promise<MessageInitShape<typeof SearchResponseSchema>> {
    const embedded = (ms: number) => {
      timing.embed += ms;
    };
    if (req.query.trim() === "") {
      throw new InvalidInputError("query is empty: say what to look for");
    }
    const limit = boundedCount("limit", req.limit, DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT);
    const project = req.allProjects ? undefined : deps.resolveProject(req);
    const projects = localProjects(project, req.excludeGlobal);
    const filter = { projects, kinds: kindsFromPb(req.kinds), statuses: orDefault(statusesFromPb(req.statuses)) };
    const mode = req.mode === SearchMode.UNSPECIFIED ? SearchMode.KEYWORD : req.mode;
    let results;
    if (mode === SearchMode.KEYWORD) {
      results = store.searchKeyword({ query: req.query, filter, limit });
    } else if (mode === SearchMode.HYBRID) {
      const hybrid = await hybridSearch(store, deps.embeddings, {
        query: req.query,
        project,
        excludeGlobal: req.excludeGlobal,
        filter: { kinds: filter.kinds, statuses: filter.statuses },
        limit,
        now: now(),
        embedded,
        overlapped: (ms) => {
          timing.overlap += ms;
        },
        vectorWaitMs: vectorWaitMs(context.timeoutMs()),
      });
      logVectorsSkipped(context, hybrid.vectorsSkipped);
      return {
        results: hybrid.results.map((r) => ({
          memory: memoryToPb(r.memory),
          score: r.score,
          explanation: req.explain ? r.explanation : undefined,
        })),
        project: project ?? "",
        mode,
        vectorsSkipped: hybrid.vectorsSkipped,
      };
    } else if (mode === SearchMode.VECTOR) {
      if (!deps.embeddings) throw new UnavailableError("vector search is off (MEMD_EMBEDDER=none); use keyword mode or turn embeddings on");
      const waitMs = vectorWaitMs(context.timeoutMs());
      // Vector search has nothing to answer with but the vectors: past the wait it fails, as when the embedder does.
      results = await within(deps.embeddings.search(req.query, filter, limit, embedded), waitMs, () => {
        throw new UnavailableError(`the query's embedding did not arrive within ${Math.round(waitMs)} ms; keyword and hybrid search answer without it`);
      });
    } else {
      throw new InvalidInputError(`mode has unknown value ${req.mode}; use keyword, vector or hybrid`);
    }
    return {
      results: results.map((r) => ({ memory: memoryToPb(r.memory), score: r.score })),
      project: project ?? "",
      mode,
    };
  }

  return {
    async save(req) {
      const project = deps.resolveProject(req) ?? GLOBAL_PROJECT;
      const saved = await saveMemory(
        deps,
        {
          content: req.content,
          kind: kindFromPb(req.kind, "fact"),
          project,
          problem: req.problem,
          solution: req.solution,
          concepts: req.concepts,
          files: req.files,
          tags: req.tags,
          confidence: req.confidence,
          provenance: provenanceFromPb(req.provenance, "save"),
          tier: tierFromPb(req.tier),
          pinned: req.pinned,
          importance: req.importance,
          valence: req.valence,
          intensity: req.intensity,
          sessionId: req.sessionId,
          sourceAgent: req.sourceAgent,
          expiresAt: timeFromPb("expire_time", req.expireTime),
          reviewAt: timeFromPb("review_time", req.reviewTime),
        },
        now(),
        req.waitForVector,
      );
      return {
        memory: memoryToPb(saved.memory),
        vectorReady: saved.vectorReady,
        mergedInto: saved.mergedInto ?? undefined,
        contradictions: saved.contradictions.map((c) => contradictionToPb(c, store)),
      };
    },

    get(req) {
      return { memory: memoryToPb(getOrThrow(req.id)) };
    },

    update(req) {
      const { memory, contradictions } = updateMemory(deps, req.id, patchFromRequest(req), now());
      return { memory: memoryToPb(memory), contradictions: contradictions.map((c) => contradictionToPb(c, store)) };
    },

    archive(req) {
      return { memory: memoryToPb(archiveOnRequest(store, req.id, req.reason, now())) };
    },

    list(req) {
      if (req.reviewDue) {
        const project = namedProjectFilter(deps.resolveProject, req.project);
        return { memories: rulesDueForReview(store, project, now()).map(memoryToPb), nextPageToken: "" };
      }
      const pageSize = boundedCount("page_size", req.pageSize, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
      const project = namedProjectFilter(deps.resolveProject, req.project);
      const filter: MemoryFilter = {
        projects: project === undefined ? undefined : [project],
        kinds: kindsFromPb(req.kinds),
        statuses: orDefault(statusesFromPb(req.statuses)),
        sessionId: req.sessionId,
        pinnedOnly: req.pinnedOnly,
        createdAfter: timeFromPb("create_time_after", req.createTimeAfter) ?? undefined,
        createdBefore: timeFromPb("create_time_before", req.createTimeBefore) ?? undefined,
      };
      // One extra row tells whether another page follows.
      const rows = store.list(filter, { limit: pageSize + 1, afterId: decodePageToken(req.pageToken) });
      const page = rows.slice(0, pageSize);
      const last = page.at(-1);
      return {
        memories: page.map(memoryToPb),
        nextPageToken: rows.length > pageSize && last ? encodePageToken(last.id) : "",
      };
    },

    async search(req, context) {
      // Server-Timing tells a client search time from the embedder's.
      const started = performance.now();
      const timing = { embed: 0, overlap: 0 };
      try {
        return await search(req, timing, context);
      } finally {
        context.responseHeader.set("server-timing", serverTiming(timing, performance.now() - started));
      }
    },

    async recall(req, context) {
      const caller = injectionCaller(req, "Recall");
      const project = deps.resolveProject(req);
      const result = await recall(store, deps.embeddings, {
        query: req.query,
        project,
        excludeGlobal: req.excludeGlobal,
        kinds: kindsFromPb(req.kinds),
        depth: req.depth,
        limit: req.limit,
        maxTokens: req.maxTokens,
        ids: req.ids.map(validateId),
        now: now(),
        vectorWaitMs: vectorWaitMs(context.timeoutMs()),
      });
      logVectorsSkipped(context, result.vectorsSkipped);
      const full = result.depth >= 2;
      const recalled = result.items.map((item) => ({ ...item, summary: withAuthor(item.summary, item.memory) }));
      deps.recorder.record({
        at: now(),
        ...caller,
        kind: "recall",
        project: project ?? "",
        prompt: req.query,
        memories: recalled.map((item) => ({ memoryId: item.memory.id, kind: item.memory.kind, line: item.summary, score: item.score, why: recallReason(item) })),
        text: recalledText(recalled, full),
      });
      return {
        memories: recalled.map((item) => ({
          id: item.memory.id,
          summary: item.summary,
          kind: kindToPb(item.memory.kind),
          project: item.memory.project,
          score: item.score,
          memory: full ? memoryToPb(item.memory) : undefined,
          associated: item.associated,
          explanation: req.explain ? item.explanation : undefined,
        })),
        project: project ?? "",
        depth: result.depth,
        tokens: result.tokens,
        truncated: result.truncated,
        vectorsSkipped: result.vectorsSkipped,
      };
    },

    supersede(req) {
      const correction = {
        content: req.content,
        reason: req.reason,
        kind: kindFromPb(req.kind),
        concepts: req.concepts,
        files: req.files,
        sessionId: req.sessionId,
        sourceAgent: req.sourceAgent,
        provenance: provenanceFromPb(req.provenance),
      };
      const result = supersedeClaim(store, deps, req.id, correction, now());
      return { memory: memoryToPb(result.next), superseded: memoryToPb(result.old) };
    },

    async history(req) {
      const start = getOrThrow(req.id);
      // The injections of answers already given are in the record before it is read.
      await deps.recorder.settled();
      const chain = claimChain(store, start);
      const events = store.events(chain.map((m) => m.id));
      const tallyToPb = (t: InjectionTally) => ({ memoryId: t.memoryId, count: t.count, lastTime: timeToPb(t.lastAt), lastSessionId: t.lastSessionId, lastAgent: t.lastAgent });
      const injected = store.injectionLog.tallies(chain.map((m) => m.id), now());
      return {
        chain: chain.map(memoryToPb),
        events: events.map((e) => {
          // What an agent was told about a memory before it was taken out of use: the agent may still act on it.
          const before = RETIRING_ACTIONS.has(e.action) && injected.has(e.memoryId) ? store.injectionLog.tallies([e.memoryId], e.at).get(e.memoryId) : undefined;
          return { memoryId: e.memoryId, time: timeToPb(e.at), action: e.action, sessionId: e.sessionId, detail: e.detail, injectedBefore: before && tallyToPb(before) };
        }),
        injections: chain.flatMap((m) => {
          const tally = injected.get(m.id);
          return tally ? [tallyToPb(tally)] : [];
        }),
      };
    },

    promote(req) {
      return { memory: memoryToPb(promoteStaged(store, req.id, now())) };
    },

    reject(req) {
      return { memory: memoryToPb(rejectStaged(store, req.id, req.reason, now())) };
    },

    graph(req) {
      const project = deps.resolveProject(req) ?? GLOBAL_PROJECT;
      const limit = boundedCount("limit", req.limit, DEFAULT_GRAPH_MEMORIES, MAX_GRAPH_MEMORIES);
      const graph = store.projectGraph(project, limit);
      return {
        project,
        memories: graph.memories.map((m) => ({ id: m.id, content: m.content, kind: kindToPb(m.kind) })),
        entities: graph.entities,
        links: graph.links,
      };
    },

    restore(req) {
      return { memory: memoryToPb(restoreArchived(store, req.id, now())) };
    },

    checkpoint(req) {
      const project = deps.resolveProject(req) ?? GLOBAL_PROJECT;
      const input = {
        content: req.summary,
        kind: kindFromPb(req.kind, "episode"),
        project,
        problem: req.problem,
        solution: req.solution,
        concepts: req.concepts,
        files: req.files,
        sessionId: req.sessionId,
        sourceAgent: req.sourceAgent,
      };
      const { memory, contradictions } = checkpointMemory(deps, input, now());
      return { memory: memoryToPb(memory), contradictions: contradictions.map((c) => contradictionToPb(c, store)) };
    },

    sync(req, ctx) {
      const project = deps.resolveProject(req) ?? GLOBAL_PROJECT;
      const projects = store.projects();
      const review = [...rulesDueForReview(store, project, now()), ...(project === GLOBAL_PROJECT ? [] : rulesDueForReview(store, GLOBAL_PROJECT, now()))];
      return {
        reviewDue: review.map(memoryToPb),
        health: healthStatus(deps),
        project,
        projectActiveCount: BigInt(projects.find((p) => p.name === project)?.activeCount ?? 0),
        totalActiveCount: BigInt(projects.reduce((sum, p) => sum + p.activeCount, 0)),
        projects: projects.map((p) => ({
          name: p.name,
          root: p.root,
          activeCount: BigInt(p.activeCount),
          lastSaveTime: timeToPb(p.lastSaveAt),
        })),
        skillProposals: syncSkillProposals(deps, req, project, ctx),
      };
    },

    brief(req, ctx) {
      return briefSession(deps, req, ctx);
    },

    async suggest(req, context) {
      const pointers = await suggestPointers(deps, req, vectorWaitMs(context.timeoutMs()));
      logVectorsSkipped(context, pointers.vectorsSkipped ?? "");
      return pointers;
    },
  };
}

function patchFromRequest(req: UpdateRequest): MemoryPatch {
  const patch: MemoryPatch = {};
  if (req.content !== undefined) patch.content = req.content;
  const kind = kindFromPb(req.kind);
  if (kind !== undefined) patch.kind = kind;
  if (req.project !== undefined) patch.project = req.project;
  if (req.problem !== undefined) patch.problem = req.problem;
  if (req.solution !== undefined) patch.solution = req.solution;
  if (req.concepts !== undefined) patch.concepts = req.concepts.values;
  if (req.files !== undefined) patch.files = req.files.values;
  if (req.tags !== undefined) patch.tags = req.tags.values;
  if (req.confidence !== undefined) patch.confidence = req.confidence;
  const tier = tierFromPb(req.tier);
  if (tier !== undefined) patch.tier = tier;
  if (req.pinned !== undefined) patch.pinned = req.pinned;
  if (req.importance !== undefined) patch.importance = req.importance;
  if (req.valence !== undefined) patch.valence = req.valence;
  if (req.intensity !== undefined) patch.intensity = req.intensity;
  if (req.expireTime !== undefined) patch.expiresAt = timeFromPb("expire_time", req.expireTime);
  if (req.reviewTime !== undefined) patch.reviewAt = timeFromPb("review_time", req.reviewTime);
  return patch;
}

function orDefault(statuses: MemoryStatus[]): readonly MemoryStatus[] {
  return statuses.length > 0 ? statuses : DEFAULT_STATUSES;
}

/** Milliseconds of a search: the wait for the query's embedding, and the search work done during it. */
interface SearchTiming {
  embed: number;
  overlap: number;
}

/** A Server-Timing header value: the embedding wait, the search after it, and the search work that overlapped the wait. */
function serverTiming(timing: SearchTiming, totalMs: number): string {
  const parts = [`embed;dur=${timing.embed.toFixed(3)}`, `search;dur=${Math.max(0, totalMs - timing.embed).toFixed(3)}`];
  if (timing.overlap > 0) parts.push(`overlap;dur=${timing.overlap.toFixed(3)}`);
  return parts.join(", ");
}
