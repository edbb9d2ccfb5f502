import type { MemoryKind, MemoryRecord } from "../memory/memory.js";
import { DAY_MS } from "../lifecycle/half-lives.js";
import type { SkillDecision } from "../store/store.js";

export interface GraduationConfig {
  /** Kinds that describe how to work, which is what a skill holds. */
  kinds: readonly MemoryKind[];
  /**
   * At or above this confidence, a memory read back through recall long enough after it was
   * saved is proven: a person stated it (human 0.95) or a debate settled it (0.85), and it was
   * still needed later. Below it, only being saved again counts.
   */
  minConfidence: number;
  /**
   * How long after it was saved a memory must still be in use (saved again in another session,
   * or read back) to be proven. A skill is loaded into every later session: what one afternoon
   * said, however confidently, has not shown that it lasts.
   */
  provenAfterMs: number;
  /** Share of a memory's meaningful words an installed skill must contain to cover it (see skill-coverage.ts). */
  coverageThreshold: number;
}

export const DEFAULT_GRADUATION_CONFIG: GraduationConfig = Object.freeze({
  kinds: Object.freeze(["procedure", "preference"] as MemoryKind[]),
  minConfidence: 0.7,
  provenAfterMs: 3 * DAY_MS,
  coverageThreshold: 0.6,
});

/** A time the memory was reinforced (saved again, corroborated), and the session that did it ("" when none was named). */
export interface Reinforcement {
  sessionId: string;
  at: number;
}

/** What is known about a memory besides its record. */
export interface GraduationFacts {
  /** Its reinforcements, in any order. */
  reinforcements: readonly Reinforcement[];
  /** A person's earlier decision on its proposal, if any. */
  decision: SkillDecision | undefined;
}

export type Ineligibility = "kind" | "status" | "expired" | "unproven" | "approved" | "dismissed";

export type Eligibility =
  | { eligible: true; reason: string }
  | { eligible: false; why: Ineligibility; message: string };

/**
 * Whether a memory may be proposed as a skill: an active procedure or preference, not expired,
 * proven (used across time and sessions, see provenBy), and not decided on before. `reason`
 * says why it qualifies.
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
  const proof = provenBy(memory, facts.reinforcements, config);
  if (proof === null) {
    return no(
      "unproven",
      `memory ${memory.id} was saved ${days(now - memory.createdAt)} ago and has not been used since in a way that proves it; a skill needs ` +
        `a memory saved again in another session, or (with confidence ${config.minConfidence} or more) read back, at least ` +
        `${days(config.provenAfterMs)} after it was first saved`,
    );
  }
  return { eligible: true, reason: [memory.kind, `confidence ${memory.confidence.toFixed(2)}`, proof].join(", ") };
}

/**
 * Why a memory is proven, or null: used across time and sessions. Saved again, at least
 * `provenAfterMs` after it was first saved, by another session than the one that saved it (or
 * by none named: memctl add); or, confident enough, read back through recall that much later,
 * which only another session could have done (sessions do not last days).
 */
function provenBy(memory: MemoryRecord, reinforcements: readonly Reinforcement[], config: GraduationConfig): string | null {
  const later = memory.createdAt + config.provenAfterMs;
  const repeats = reinforcements.filter((r) => r.at >= later && (r.sessionId === "" || r.sessionId !== memory.sessionId));
  if (repeats.length > 0) {
    const last = Math.max(...repeats.map((r) => r.at));
    return `saved again ${repeats.length === 1 ? "once" : `${repeats.length} times`} in later sessions, the last ${days(last - memory.createdAt)} after it was first saved`;
  }
  if (memory.confidence >= config.minConfidence && memory.lastAccessedAt !== null && memory.lastAccessedAt >= later) {
    return `read back ${days(memory.lastAccessedAt - memory.createdAt)} after it was saved`;
  }
  return null;
}

/** A span in whole days ("3 days"), or hours below a day ("5 hours", "0 hours"). */
function days(ms: number): string {
  const whole = Math.floor(Math.max(0, ms) / DAY_MS);
  if (whole >= 1) return `${whole} day${whole === 1 ? "" : "s"}`;
  const hours = Math.floor(Math.max(0, ms) / (60 * 60 * 1000));
  return `${hours} hour${hours === 1 ? "" : "s"}`;
}
