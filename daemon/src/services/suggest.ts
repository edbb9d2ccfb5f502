import type { HandlerContext } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  BriefZone, type BriefRequest, type BriefResponseSchema, type SuggestRequest, type SuggestResponseSchema,
} from "../../../gen/memd/v1/memory_service_pb.js";
import { InvalidInputError } from "../errors.js";
import type { InjectedMemory } from "../injections/injection.js";
import { DAY_MS } from "../lifecycle/half-lives.js";
import { withAuthor } from "../memory/author.js";
import { GLOBAL_PROJECT, type MemoryKind, type MemoryRecord, localProjects } from "../memory/memory.js";
import { type BriefingContradiction, type BriefingZone, composeBriefing, DEFAULT_BRIEFING_ITEMS } from "../recall/briefing.js";
import { hybridSearch } from "../recall/hybrid-search.js";
import { promptQuery, renderPointers, selectPointers } from "../recall/prompt-pointers.js";
import { fitBudget, itemTokens, summarize } from "../recall/recall-budget.js";
import { embeddingText } from "../embed/embedding-text.js";
import { unlessLocked } from "../store/database-locked.js";
import { kindToPb } from "./convert.js";
import type { ServiceDeps } from "./deps.js";
import { type InjectionCaller, injectionCaller } from "./injection-caller.js";
import { rulesDueForReview } from "./review.js";
import { syncSkillProposals } from "./skill-service.js";

/** Claude Code caps a hook's output at 10,000 characters; the default stays well under it. */
const DEFAULT_BRIEF_CHARS = 8000;
const MAX_BRIEF_ITEMS = 20;
const DEFAULT_POINTERS = 3;
const MAX_POINTERS = 10;
const DEFAULT_POINTER_TOKENS = 300;
/** What a session was given is forgotten once it has been idle this long: sessions are rarely resumed after days. */
const SESSION_MEMORY_MS = 7 * DAY_MS;
/** Newest memories read per zone; the briefing takes a few of them. */
const ZONE_CANDIDATES = 20;
/** Ranked matches read for a prompt; only the best few not yet injected are considered. */
const PROMPT_CANDIDATES = 20;
const PREFERENCE_KINDS: readonly MemoryKind[] = ["preference", "rule"];

const ZONES: Record<BriefingZone, BriefZone> = {
  preference: BriefZone.PREFERENCE,
  project: BriefZone.PROJECT,
  episode: BriefZone.EPISODE,
  review_due: BriefZone.REVIEW_DUE,
  skill_proposal: BriefZone.SKILL_PROPOSAL,
  contradiction: BriefZone.CONTRADICTION,
};
/** Why a briefing's item was given, in the injection record: its zone in words. */
const ZONE_REASONS: Record<BriefingZone, string> = {
  preference: "a preference",
  project: "the project's decisions and facts",
  episode: "a recent episode",
  review_due: "a rule due for review",
  skill_proposal: "a skill proposal",
  contradiction: "an open contradiction",
};
/** Open contradictions read for the briefing; it shows two. */
const BRIEF_CONTRADICTIONS = 4;

/**
 * Brief: the session-start briefing. It resolves (and so registers) the project as Sync does,
 * gathers each zone's newest memories and the skill proposals, and leaves out what the session
 * was already given unless its context was cleared.
 */
export function briefSession(deps: ServiceDeps, req: BriefRequest, ctx: HandlerContext): MessageInitShape<typeof BriefResponseSchema> {
  const maxItems = boundedInt("max_items", req.maxItems, DEFAULT_BRIEFING_ITEMS, 1, MAX_BRIEF_ITEMS);
  const maxChars = boundedInt("max_chars", req.maxChars, DEFAULT_BRIEF_CHARS, 200, 100_000);
  const caller = injectionCaller(req, "Brief");
  const { sessionId } = caller;
  const { store } = deps;
  const project = deps.resolveProject(req) ?? GLOBAL_PROJECT;
  const now = deps.now();
  if (sessionId !== "" && req.contextCleared) store.injections.forget(sessionId);
  // The newest of each zone, and its pinned memories however old: the briefing puts those first.
  const newest = (where: string, kinds: readonly MemoryKind[]): MemoryRecord[] => {
    const filter = { projects: [where], kinds, statuses: ["active"] as const };
    const pinned = store.list({ ...filter, pinnedOnly: true }, { limit: ZONE_CANDIDATES });
    const recent = store.list(filter, { limit: ZONE_CANDIDATES });
    return [...pinned, ...recent.filter((m) => !m.pinned)];
  };
  const isGlobal = project === GLOBAL_PROJECT;
  const sources = {
    project,
    preferences: [...newest(project, PREFERENCE_KINDS), ...(isGlobal ? [] : newest(GLOBAL_PROJECT, PREFERENCE_KINDS))],
    decisionsAndFacts: newest(project, ["decision", "fact"]),
    episodes: newest(project, ["episode"]),
    reviewDue: [...rulesDueForReview(store, project, now), ...(isGlobal ? [] : rulesDueForReview(store, GLOBAL_PROJECT, now))],
    // Proposals become Claude Code skills: another agent's session has no use for them.
    skillProposals: caller.agent === "" || caller.agent === "claude-code" ? syncSkillProposals(deps, req, project, ctx) : [],
    contradictions: openContradictions(deps, project),
  };
  const briefing = composeBriefing(sources, { maxItems, maxChars, alreadyInjected: sessionId === "" ? new Set() : store.injections.of(sessionId) });
  remember(deps, sessionId, briefing.injectedIds, now);
  // A file the person broke in the vault is said once, so that the agent can tell them.
  const notice = deps.vaultNotice?.() ?? null;
  const text = notice === null ? briefing.text : [briefing.text, notice].filter((part) => part !== "").join("\n\n");
  const read = new Map([...sources.preferences, ...sources.decisionsAndFacts, ...sources.episodes, ...sources.reviewDue].map((m) => [m.id, m]));
  const given = briefing.items.map((item): InjectedMemory => ({
    memoryId: item.memoryId,
    // A skill proposal's memory is not among those read for the zones.
    kind: (read.get(item.memoryId) ?? store.get(item.memoryId))?.kind ?? "procedure",
    line: item.line,
    score: 0,
    why: ZONE_REASONS[item.zone],
  }));
  deps.recorder.record({ at: now, ...caller, kind: "briefing", project, prompt: "", memories: given, text });
  return {
    project,
    items: briefing.items.map((item) => ({ zone: ZONES[item.zone], memoryId: item.memoryId, line: item.line })),
    text,
  };
}

/**
 * Suggest: pointers for a prompt. Prompts the bar rules out before searching (chit-chat, slash
 * commands, empty ones) answer empty without touching the database.
 */
export async function suggestPointers(
  deps: ServiceDeps,
  req: SuggestRequest,
  vectorWaitMs?: number,
): Promise<MessageInitShape<typeof SuggestResponseSchema>> {
  const limit = boundedInt("limit", req.limit, DEFAULT_POINTERS, 1, MAX_POINTERS);
  const maxTokens = boundedInt("max_tokens", req.maxTokens, DEFAULT_POINTER_TOKENS, 1, 100_000);
  const caller = injectionCaller(req, "Suggest");
  const { sessionId } = caller;
  const query = promptQuery(req.query);
  if (query === null) {
    recordPointers(deps, caller, deps.now(), "", req.query, [], "");
    return { pointers: [], text: "", project: "" };
  }
  const { store, embeddings } = deps;
  const project = deps.resolveProject(req);
  const now = deps.now();
  const matches = await hybridSearch(store, embeddings, {
    query,
    project,
    excludeGlobal: false,
    filter: { kinds: [], statuses: ["active"] },
    limit: PROMPT_CANDIDATES,
    now,
    vectorWaitMs,
  });
  const candidates = matches.results.map((m) => ({
    id: m.memory.id,
    kind: m.memory.kind,
    summary: summarize(m.memory.content),
    text: embeddingText(m.memory),
    score: m.score,
    keywordRank: m.explanation.keywordRank,
    graphPath: m.explanation.graphPath,
    vectorRank: m.explanation.vectorRank,
    authorship: { author: m.memory.author, editedBy: m.memory.editedBy, viaTeam: m.memory.viaTeam },
  }));
  const injected = sessionId === "" ? new Set<string>() : store.injections.of(sessionId);
  const selected = selectPointers(query, candidates, injected, limit);
  const pointers = fitBudget(selected, (p) => itemTokens(p.summary), limit, maxTokens).kept;
  remember(deps, sessionId, pointers.map((p) => p.id), now);
  const given = pointers.map((p): InjectedMemory => ({ memoryId: p.id, kind: p.kind, line: withAuthor(p.summary, p.authorship), score: p.score, why: p.why }));
  const text = renderPointers(pointers.map((p) => ({ id: p.id, kind: p.kind, line: p.summary, ...p.authorship })));
  recordPointers(deps, caller, now, project ?? "", req.query, given, text);
  return {
    pointers: given.map((p) => ({ id: p.memoryId, kind: kindToPb(p.kind), line: p.line, score: p.score, why: p.why })),
    text,
    project: project ?? "",
    vectorsSkipped: matches.vectorsSkipped,
  };
}

/** Records a prompt's answer, pointers or none: the prompts that got nothing count in the totals too. */
function recordPointers(deps: ServiceDeps, caller: InjectionCaller, at: number, project: string, prompt: string, given: InjectedMemory[], text: string): void {
  deps.recorder.record({ at, ...caller, kind: "pointers", project, prompt, memories: given, text });
}

/** The project's (and global's) open contradictions, newest first, with both memories. */
function openContradictions(deps: ServiceDeps, project: string): BriefingContradiction[] {
  const projects = localProjects(project);
  return deps.store.contradictions.list({ projects, settled: false, limit: BRIEF_CONTRADICTIONS }).flatMap((c) => {
    const newer = deps.store.get(c.memoryId);
    const older = deps.store.get(c.otherId);
    return newer && older ? [{ id: c.id, newer, older, subject: c.subject }] : [];
  });
}

/** Records what a session was given; the records of idle sessions are pruned on the way, so the table only grows with use. */
function remember(deps: ServiceDeps, sessionId: string, memoryIds: readonly string[], now: number): void {
  if (sessionId === "" || memoryIds.length === 0) return;
  // A prompt's hook must not wait for another process's write lock: at worst a pointer is shown again.
  unlessLocked(() => {
    deps.store.injections.prune(now - SESSION_MEMORY_MS);
    deps.store.injections.record(sessionId, memoryIds, now);
  });
}

function boundedInt(field: string, value: number, fallback: number, min: number, max: number): number {
  if (value === 0) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidInputError(`${field} must be between ${min} and ${max} (or 0 for ${fallback}), got ${value}`);
  }
  return value;
}
