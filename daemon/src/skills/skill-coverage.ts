import type { MemoryRecord } from "../memory/memory.js";
import { contentStems } from "./skill-tokens.js";

/** An installed Claude Code skill, as read from its SKILL.md. */
export interface InstalledSkill {
  name: string;
  description: string;
  body: string;
  /** The SKILL.md file it was read from. */
  file: string;
}

/** A skill with the word stems of its name, description and body, computed once per scan. */
export interface IndexedSkill {
  skill: InstalledSkill;
  stems: ReadonlySet<string>;
}

export function indexSkills(skills: readonly InstalledSkill[]): IndexedSkill[] {
  return skills.map((skill) => ({
    skill,
    stems: contentStems([skill.name.replace(/-/g, " "), skill.description, skill.body].join("\n")),
  }));
}

/**
 * How much of a memory an installed skill already says: the share of the memory's meaningful
 * word stems (content and concepts; see skill-tokens.ts) that occur anywhere in the skill's
 * name, description or body. 1 means every word of the memory is in the skill; a memory with
 * no meaningful words scores 0 (nothing shows it is covered). The measure is one-sided on
 * purpose: a long skill that also says many other things still covers a short memory.
 */
export function coverageScore(memory: Pick<MemoryRecord, "content" | "concepts">, skill: IndexedSkill): number {
  const wanted = contentStems([memory.content, ...memory.concepts].join("\n"));
  if (wanted.size === 0) return 0;
  let shared = 0;
  for (const stem of wanted) if (skill.stems.has(stem)) shared += 1;
  return shared / wanted.size;
}

/** The installed skill that covers the memory best, if one reaches `threshold` (inclusive). */
export function coveringSkill(
  memory: Pick<MemoryRecord, "content" | "concepts">,
  skills: readonly IndexedSkill[],
  threshold: number,
): { skill: InstalledSkill; score: number } | null {
  let best: { skill: InstalledSkill; score: number } | null = null;
  for (const indexed of skills) {
    const score = coverageScore(memory, indexed);
    if (score >= threshold && (best === null || score > best.score)) best = { skill: indexed.skill, score };
  }
  return best;
}
