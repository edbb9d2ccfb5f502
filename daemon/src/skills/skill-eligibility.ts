import type { MemoryKind, MemoryRecord } from "../memory/memory.js";
import type { SkillDecision } from "../store/store.js";

export interface GraduationConfig {
  /** Kinds that describe how to work, which is what a skill holds. */
  kinds: readonly MemoryKind[];
  /**
   * At or above this confidence a memory graduates without being repeated: what a person
   * stated (human 0.95) or a debate settled (0.85) does; a plain agent save (0.5) or a
   * checkpoint (0.65) must first be reinforced (saved again) at least `minReinforcements` times.
   */
  minConfidence: number;
  minReinforcements: number;
  /** Share of a memory's meaningful words an installed skill must contain to cover it (see skill-coverage.ts). */
  coverageThreshold: number;
}

export const DEFAULT_GRADUATION_CONFIG: GraduationConfig = Object.freeze({
  kinds: Object.freeze(["procedure", "preference"] as MemoryKind[]),
  minConfidence: 0.7,
  minReinforcements: 1,
  coverageThreshold: 0.6,
});

/** What is known about a memory besides its record. */
export interface GraduationFacts {
  /** How many times it was reinforced (the same content saved again). */
  reinforcements: number;
  /** A person's earlier decision on its proposal, if any. */
  decision: SkillDecision | undefined;
}

export type Ineligibility = "kind" | "status" | "expired" | "unproven" | "approved" | "dismissed";

export type Eligibility =
  | { eligible: true; reason: string }
  | { eligible: false; why: Ineligibility; message: string };

/**
 * Whether a memory may be proposed as a skill: an active procedure or preference, not expired,
 * confident enough or reinforced, and not decided on before. `reason` says why it qualifies.
 */
export function skillEligibility(memory: MemoryRecord, facts: GraduationFacts, now: number, config: GraduationConfig = DEFAULT_GRADUATION_CONFIG): Eligibility {
  const no = (why: Ineligibility, message: string): Eligibility => ({ eligible: false, why, message });
  if (facts.decision?.decision === "approved") {
    return no("approved", `memory ${memory.id} was already approved as a skill: ${facts.decision.skillPath}`);
  }
  if (facts.decision?.decision === "dismissed") return no("dismissed", `memory ${memory.id} was dismissed as a skill proposal`);
  if (!config.kinds.includes(memory.kind)) {
    return no("kind", `memory ${memory.id} is a ${memory.kind}; only ${config.kinds.join(" and ")} memories become skills`);
  }
  if (memory.status !== "active") return no("status", `memory ${memory.id} is ${memory.status}; only active memories become skills`);
  if (memory.expiresAt !== null && memory.expiresAt <= now) return no("expired", `memory ${memory.id} has expired`);
  const confident = memory.confidence >= config.minConfidence;
  const reinforced = facts.reinforcements >= config.minReinforcements;
  if (!confident && !reinforced) {
    return no(
      "unproven",
      `memory ${memory.id} has confidence ${memory.confidence.toFixed(2)} and was never reinforced; a skill needs confidence ` +
        `${config.minConfidence} or more, or the same memory saved again (reinforced) at least ${config.minReinforcements} time(s)`,
    );
  }
  const parts = [memory.kind, `confidence ${memory.confidence.toFixed(2)}`];
  if (facts.reinforcements > 0) parts.push(`reinforced ${facts.reinforcements} time${facts.reinforcements === 1 ? "" : "s"}`);
  return { eligible: true, reason: parts.join(", ") };
}
