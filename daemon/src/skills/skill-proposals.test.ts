import { describe, expect, it } from "vitest";
import type { MemoryRecord } from "../memory/memory.js";
import { buildMemory } from "../memory/new-memory.js";
import { indexSkills } from "./skill-coverage.js";
import { parseSkillFile } from "./skill-file.js";
import { planProposals, type ProposalCandidate } from "./skill-proposals.js";

const at = Date.UTC(2026, 0, 1);

function candidate(id: string, content: string, overrides: Partial<ProposalCandidate> = {}, memory: Partial<MemoryRecord> = {}): ProposalCandidate {
  const record = { ...buildMemory({ content, kind: "procedure", project: "api" }, id, at, { maxContentBytes: 65536 }), confidence: 0.9, ...memory };
  return { memory: record, reason: "procedure, confidence 0.90", reinforcements: 0, scope: "project", dir: "/p/.claude/skills", skills: [], ...overrides };
}

describe("planProposals", () => {
  it("orders by reinforcements, then confidence, then newest, and stops at the limit", () => {
    const planned = planProposals(
      [
        candidate("01A", "Rotate the signing keys monthly.", {}, { confidence: 0.8 }),
        candidate("01B", "Deploy with argo sync.", { reinforcements: 2 }, { confidence: 0.5 }),
        candidate("01C", "Vacuum the database weekly.", {}, { confidence: 0.8 }),
        candidate("01D", "Bump the lockfile with pnpm.", {}, { confidence: 0.95 }),
      ],
      new Set(),
      3,
      0.6,
    );
    expect(planned.map((p) => p.memory.id)).toEqual(["01B", "01D", "01C"]);
  });

  it("leaves out a memory an installed skill covers", () => {
    const skills = indexSkills([{ name: "argo", description: "Deploying with Argo", body: "argo sync", file: "/u/argo/SKILL.md" }]);
    const planned = planProposals([candidate("01A", "Deploy with argo sync.", { skills }), candidate("01B", "Vacuum the database weekly.", { skills })], new Set(), 10, 0.6);
    expect(planned.map((p) => p.memory.id)).toEqual(["01B"]);
  });

  it("gives each proposal a name unique against installed skills and against the other proposals", () => {
    const planned = planProposals(
      [candidate("01A", "Deploy staging now."), candidate("01B", "Deploy staging now!", { dir: "/u/.claude/skills", scope: "user" })],
      new Set(["deploy-staging"]),
      10,
      0.6,
    );
    // Equal in proof, the newer memory (01B) comes first and takes the first free number.
    expect(planned.map((p) => [p.memory.id, p.name])).toEqual([["01B", "deploy-staging-2"], ["01A", "deploy-staging-3"]]);
    expect(planned.map((p) => p.path)).toEqual(["/u/.claude/skills/deploy-staging-2/SKILL.md", "/p/.claude/skills/deploy-staging-3/SKILL.md"]);
  });

  it("renders a SKILL.md whose frontmatter carries the proposal's name and description", () => {
    const [planned] = planProposals([candidate("01A", "Vacuum the database weekly.")], new Set(), 1, 0.6);
    const parsed = parseSkillFile(planned?.text ?? "");
    expect(parsed?.fields).toEqual({ name: planned?.name, description: planned?.description });
    expect(planned?.reason).toBe("procedure, confidence 0.90");
  });
});
