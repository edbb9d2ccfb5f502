import path from "node:path";
import type { MemoryRecord } from "../memory/memory.js";
import { coveringSkill, type IndexedSkill } from "./skill-coverage.js";
import { renderSkill, skillDescription } from "./render-skill.js";
import { skillSlug, uniqueSkillName } from "./skill-name.js";
import type { SkillScopeName } from "./skill-target.js";

/** A memory that qualifies, with where its skill would go and the skills that might already cover it. */
export interface ProposalCandidate {
  memory: MemoryRecord;
  /** Why it qualifies (from skillEligibility). */
  reason: string;
  reinforcements: number;
  scope: SkillScopeName;
  dir: string;
  /** Installed skills to check coverage against. */
  skills: readonly IndexedSkill[];
}

/** A skill ready to be written. */
export interface PlannedSkill {
  memory: MemoryRecord;
  name: string;
  description: string;
  /** The SKILL.md path. */
  path: string;
  /** The SKILL.md text. */
  text: string;
  reason: string;
  scope: SkillScopeName;
}

/** Names the skill `memory` would get in `dir` and renders its SKILL.md. */
export function planSkill(memory: MemoryRecord, name: string, dir: string, scope: SkillScopeName, reason: string): PlannedSkill {
  const description = skillDescription(memory);
  return { memory, name, description, path: path.join(dir, name, "SKILL.md"), text: renderSkill(memory, name, description), reason, scope };
}

/**
 * The proposals, most proven first (most reinforced, then most confident, then newest), leaving
 * out memories an installed skill covers, at most `limit`. Names are unique: against `taken`
 * (the installed skills' folders and names, so that no proposal shadows a skill in the other
 * folder) and against earlier proposals of the same list.
 */
export function planProposals(
  candidates: readonly ProposalCandidate[],
  taken: ReadonlySet<string>,
  limit: number,
  coverageThreshold: number,
): PlannedSkill[] {
  const ordered = [...candidates].sort(
    (a, b) =>
      b.reinforcements - a.reinforcements ||
      b.memory.confidence - a.memory.confidence ||
      (a.memory.id < b.memory.id ? 1 : a.memory.id > b.memory.id ? -1 : 0),
  );
  const names = new Set(taken);
  const out: PlannedSkill[] = [];
  for (const candidate of ordered) {
    if (out.length >= limit) break;
    if (coveringSkill(candidate.memory, candidate.skills, coverageThreshold) !== null) continue;
    const name = uniqueSkillName(skillSlug(candidate.memory), names);
    names.add(name);
    out.push(planSkill(candidate.memory, name, candidate.dir, candidate.scope, candidate.reason));
  }
  return out;
}
