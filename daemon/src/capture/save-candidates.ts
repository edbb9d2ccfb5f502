import { normalizedContentHash } from "../lifecycle/content-hash.js";
import { GLOBAL_PROJECT, type MemoryRecord } from "../memory/memory.js";
import { mergeExactDuplicate } from "../memory/merge-duplicates.js";
import { buildMemory } from "../memory/new-memory.js";
import { insertChecked } from "../commands/insert-checked.js";
import type { MemoryLimits } from "../memory/validate.js";
import type { ContradictionWatch } from "../contradictions/contradiction-watch.js";
import type { ContradictionRecord, MemoryRecords } from "../store/store.js";
import type { CaptureCandidate } from "./candidate.js";
import { MAX_PREFERENCES_PER_SESSION, MAX_STAGED_PER_SESSION, MAX_TRACES_PER_SESSION } from "./extract-candidates.js";
import { SHELL_FAILURE_TAG } from "./failure-trace.js";

/** Every memory the sweep writes carries this tag: it is how a later sweep of the session counts what it already staged. */
export const SWEEP_TAG = "transcript-sweep";
const SESSION_PAGE = 500;

export interface SaveContext {
  store: MemoryRecords;
  newId: () => string;
  now: number;
  limits: MemoryLimits;
  project: string;
  /** Never empty: without it a repeat sweep could not be recognised. */
  sessionId: string;
  sourceAgent: string;
  /** Finds the active memories a candidate contradicts; such a candidate is staged, with the pairs recorded. */
  contradictions?: Pick<ContradictionWatch, "detect" | "record">;
}

export type CaptureOutcome = "created" | "merged" | "already-saved";

export interface CapturedMemory {
  memory: MemoryRecord;
  outcome: CaptureOutcome;
  candidate: CaptureCandidate;
  /** The active memories it contradicts, recorded when it was created. */
  contradictions?: ContradictionRecord[];
}

export interface SaveResult {
  captured: CapturedMemory[];
  /** Candidates left out by the per-session caps. */
  overLimit: number;
  /** Candidates the memory validation refused (a list entry too long, say). */
  invalid: number;
}

/**
 * Writes candidates as Save does, except: what the user stated is active and everything inferred
 * staged; what the session already holds is left alone (sweeping twice changes nothing); the
 * per-session caps hold across sweeps. Synchronous, so two sweeps of a session cannot interleave.
 */
export function saveCandidates(candidates: readonly CaptureCandidate[], ctx: SaveContext): SaveResult {
  const { store } = ctx;
  const mine = sessionMemories(store, ctx.sessionId);
  const swept = mine.filter((m) => m.tags.includes(SWEEP_TAG));
  let stagedLeft = MAX_STAGED_PER_SESSION - swept.filter((m) => m.provenance === "distilled").length;
  let preferencesLeft = MAX_PREFERENCES_PER_SESSION - swept.filter((m) => m.kind === "preference" && m.provenance !== "distilled").length;
  let tracesLeft = MAX_TRACES_PER_SESSION - swept.filter((m) => m.kind === "trace").length;
  const result: SaveResult = { captured: [], overLimit: 0, invalid: 0 };

  for (const candidate of candidates) {
    let record: MemoryRecord;
    try {
      record = buildMemory(memoryInput(candidate, ctx), ctx.newId(), ctx.now, ctx.limits);
    } catch {
      // The message may quote transcript text; the caller logs the count only.
      result.invalid += 1;
      continue;
    }
    const already = sameIn(mine, record);
    if (already) {
      result.captured.push({ memory: already, outcome: "already-saved", candidate });
      continue;
    }
    const staged = record.status === "staged";
    const trace = record.kind === "trace";
    if ((staged ? stagedLeft : trace ? tracesLeft : preferencesLeft) <= 0) {
      result.overLimit += 1;
      continue;
    }
    const merged = mergeExactDuplicate(store, record);
    if (merged) {
      result.captured.push({ memory: merged, outcome: "merged", candidate });
      continue;
    }
    const detail = candidate.model ? `transcript sweep, distilled by ${candidate.model}` : "transcript sweep";
    const inserted = insertChecked(store, ctx.contradictions, record, { detail, via: "sweep", stageContradicted: true });
    record = inserted.memory;
    const { contradictions } = inserted;
    mine.push(record);
    if (staged) stagedLeft -= 1;
    else if (trace) tracesLeft -= 1;
    else preferencesLeft -= 1;
    result.captured.push({ memory: record, outcome: "created", candidate, contradictions });
  }
  return result;
}

/** The tags a swept memory carries beside SWEEP_TAG, by kind. */
const KIND_TAGS: Partial<Record<CaptureCandidate["kind"], string>> = { episode: "bug-fix", trace: SHELL_FAILURE_TAG };

function memoryInput(candidate: CaptureCandidate, ctx: SaveContext) {
  const stated = candidate.kind === "preference" && candidate.source === "user" && candidate.model === undefined;
  // A trace records what a tool printed, as a hook would have saved it: not an inference to stage.
  const recorded = candidate.kind === "trace" && candidate.model === undefined;
  const kindTag = KIND_TAGS[candidate.kind];
  return {
    content: candidate.content,
    kind: candidate.kind,
    project: candidate.scope === "global" ? GLOBAL_PROJECT : ctx.project,
    problem: candidate.problem,
    solution: candidate.solution,
    concepts: candidate.concepts,
    files: candidate.files,
    tags: kindTag === undefined ? [SWEEP_TAG] : [SWEEP_TAG, kindTag],
    provenance: stated ? ("human" as const) : recorded ? ("save" as const) : ("distilled" as const),
    sessionId: ctx.sessionId,
    sourceAgent: ctx.sourceAgent,
  };
}

/** A memory of this session, in any status, that says the same thing: swept before, saved by the agent, or since rejected. */
function sameIn(mine: readonly MemoryRecord[], record: MemoryRecord): MemoryRecord | undefined {
  const hash = normalizedContentHash(record.content);
  return mine.find((m) => m.kind === record.kind && m.project === record.project && normalizedContentHash(m.content) === hash);
}

function sessionMemories(store: MemoryRecords, sessionId: string): MemoryRecord[] {
  const out: MemoryRecord[] = [];
  for (let afterId: string | undefined; ; ) {
    const page = store.list({ sessionId, kinds: [], statuses: [] }, { limit: SESSION_PAGE, afterId });
    out.push(...page);
    if (page.length < SESSION_PAGE) return out;
    afterId = page.at(-1)?.id;
  }
}
