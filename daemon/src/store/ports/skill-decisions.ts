/** A person's decisions on skill proposals, so that a dismissed proposal is not offered again and an approved one is not written twice. */
export interface SkillDecisions {
  /** The decisions recorded for these memories. */
  of(memoryIds: readonly string[]): SkillDecision[];
  /** Records (or replaces) the decision on a memory's skill proposal. */
  record(decision: SkillDecision): void;
}

/** A person's decision on a skill proposal: approved (a SKILL.md was written at skillPath) or dismissed. */
export interface SkillDecision {
  memoryId: string;
  decision: "approved" | "dismissed";
  /** The SKILL.md written on approval; empty for dismissals. */
  skillPath: string;
  at: number;
}
