import { GLOBAL_PROJECT, type MemoryRecord, type MemoryStatus, type Provenance } from "../memory/memory.js";
import { DAY_MS } from "./half-lives.js";

export interface PromotionConfig {
  /** Lowest similarity (0..1) at which an observation says the same thing as a staged memory. */
  matchThreshold: number;
  /** Distinct sessions, other than the one that staged it, that must agree before promotion. */
  corroborationsToPromote: number;
  /** Confidence a promoted memory gets at least: independent agreement makes it as good as a save. */
  promotedConfidence: number;
  /** How long a staged memory may wait for corroboration before it is archived. */
  stagedMaxAgeMs: number;
}

export const DEFAULT_PROMOTION_CONFIG: PromotionConfig = Object.freeze({
  matchThreshold: 0.85,
  corroborationsToPromote: 1,
  promotedConfidence: 0.5,
  stagedMaxAgeMs: 30 * DAY_MS,
});

/**
 * What a person states (human, save, checkpoint, debate, import) is active at once; what an
 * agent inferred (distilled) waits, staged, until another session says the same thing.
 */
export function initialStatus(provenance: Provenance): Extract<MemoryStatus, "active" | "staged"> {
  return provenance === "distilled" ? "staged" : "active";
}

/** A staged memory and the sessions already recorded as corroborating it. */
export interface StagedMemory
  extends Pick<MemoryRecord, "id" | "status" | "project" | "sessionId" | "confidence" | "createdAt"> {
  corroboratingSessions: readonly string[];
}

/** Something seen after the memory was staged that may say the same thing. */
export interface Observation {
  /** A write (save, checkpoint, distillation) may corroborate; a recall is only the memory read back. */
  via: "write" | "recall";
  sessionId: string;
  project: string;
  /** Cosine similarity of the observation to the staged memory. */
  similarity: number;
  at: number;
}

export type CorroborationReason =
  | "not-staged" | "recall" | "no-session" | "same-session" | "already-corroborated"
  | "other-project" | "below-threshold" | "before-staged" | "corroborated" | "promoted";

export interface CorroborationVerdict {
  /** Record the observation's session as corroborating. */
  counts: boolean;
  /** Make the memory active, applying `promotion`. */
  promote: boolean;
  reason: CorroborationReason;
  promotion: { status: "active"; confidence: number } | null;
}

/**
 * Decides whether an observation corroborates a staged memory. Only evidence from a session
 * that has not spoken yet counts: one session repeating itself, or a memory being read back,
 * is not independent agreement.
 */
export function evaluateCorroboration(
  staged: StagedMemory,
  observation: Observation,
  config: PromotionConfig,
): CorroborationVerdict {
  const rejection = rejectionReason(staged, observation, config);
  if (rejection !== null) return { counts: false, promote: false, reason: rejection, promotion: null };
  const earlier = staged.corroboratingSessions.filter((s) => s !== "" && s !== staged.sessionId);
  const agreeing = new Set(earlier).size + 1;
  if (agreeing < config.corroborationsToPromote) {
    return { counts: true, promote: false, reason: "corroborated", promotion: null };
  }
  const confidence = Math.max(staged.confidence, config.promotedConfidence);
  return { counts: true, promote: true, reason: "promoted", promotion: { status: "active", confidence } };
}

function rejectionReason(
  staged: StagedMemory,
  observation: Observation,
  config: PromotionConfig,
): CorroborationReason | null {
  if (staged.status !== "staged") return "not-staged";
  if (observation.via !== "write") return "recall";
  // Without a session id independence cannot be shown, so the observation cannot count.
  if (observation.sessionId === "") return "no-session";
  if (observation.sessionId === staged.sessionId) return "same-session";
  if (staged.corroboratingSessions.includes(observation.sessionId)) return "already-corroborated";
  if (!sameScope(staged.project, observation.project)) return "other-project";
  if (!(observation.similarity >= config.matchThreshold)) return "below-threshold";
  if (observation.at < staged.createdAt) return "before-staged";
  return null;
}

/** User-wide (global) memories and observations agree with every project; projects don't with each other. */
function sameScope(stagedProject: string, observedProject: string): boolean {
  return stagedProject === observedProject || stagedProject === GLOBAL_PROJECT || observedProject === GLOBAL_PROJECT;
}

export interface StagedExpiry {
  archive: boolean;
  reason: "not-staged" | "fresh" | "staged-stale";
}

/** Whether a staged memory has waited too long for corroboration. Stale ones are archived, never deleted. */
export function stagedExpiry(
  staged: Pick<MemoryRecord, "status" | "createdAt">,
  now: number,
  config: Pick<PromotionConfig, "stagedMaxAgeMs">,
): StagedExpiry {
  if (staged.status !== "staged") return { archive: false, reason: "not-staged" };
  if (now - staged.createdAt < config.stagedMaxAgeMs) return { archive: false, reason: "fresh" };
  return { archive: true, reason: "staged-stale" };
}
