import { describe, expect, it } from "vitest";
import { coverageScore, coveringSkill, type InstalledSkill, indexSkills } from "./skill-coverage.js";

function skill(body: string, overrides: Partial<InstalledSkill> = {}): InstalledSkill {
  return { name: "notes", description: "", body, file: "/skills/notes/SKILL.md", ...overrides };
}

// Five meaningful stems: deploy, staging, argo, rollout, canary.
const memory = { content: "Always deploy to staging with Argo rollouts, then a canary.", concepts: [] };

describe("coverageScore", () => {
  it("is the share of the memory's meaningful stems found in the skill", () => {
    const [indexed] = indexSkills([skill("We deployed staging with Argo.")]);
    expect(coverageScore(memory, indexed as never)).toBeCloseTo(3 / 5);
  });

  it("matches inflections and ignores case, accents and stopwords", () => {
    const [indexed] = indexSkills([skill("DEPLOYING to Stäging: argo ROLLOUT, canaries")]);
    expect(coverageScore(memory, indexed as never)).toBe(1);
  });

  it("reads the skill's name and description as well as its body", () => {
    const [indexed] = indexSkills([skill("", { name: "argo-canary", description: "Deploys staging rollouts" })]);
    expect(coverageScore(memory, indexed as never)).toBe(1);
  });

  it("counts a memory's concepts as its words", () => {
    const [indexed] = indexSkills([skill("pnpm workspaces")]);
    expect(coverageScore({ content: "Prefer it.", concepts: ["pnpm"] }, indexed as never)).toBe(1);
  });

  it("scores 0 for a memory without meaningful words", () => {
    const [indexed] = indexSkills([skill("anything at all")]);
    expect(coverageScore({ content: "Always do it that way.", concepts: [] }, indexed as never)).toBe(0);
  });
});

describe("coveringSkill", () => {
  it("covers at exactly the threshold (3 of 5 stems, 0.6)", () => {
    const skills = indexSkills([skill("We deployed staging with Argo.")]);
    expect(coveringSkill(memory, skills, 0.6)?.skill.name).toBe("notes");
  });

  it("does not cover just below the threshold (2 of 5 stems, 0.4)", () => {
    const skills = indexSkills([skill("We deployed staging.")]);
    expect(coveringSkill(memory, skills, 0.6)).toBeNull();
  });

  it("returns the best of several covering skills", () => {
    const skills = indexSkills([
      skill("deploy staging argo", { name: "partial" }),
      skill("deploy staging argo rollout canary", { name: "full" }),
    ]);
    expect(coveringSkill(memory, skills, 0.6)).toMatchObject({ skill: { name: "full" }, score: 1 });
  });
});
