import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { SkillProposalSchema } from "../../../gen/memd/v1/skill_service_pb.js";
import { CliFailure } from "./context.js";
import { approvedSkill } from "./skill-commands.js";

describe("memctl skills approve", () => {
  it("fails, naming the memory, when the daemon's answer holds no skill instead of printing undefined", () => {
    expect(() => approvedSkill("mem_1", undefined)).toThrow(CliFailure);
    expect(() => approvedSkill("mem_1", undefined)).toThrow(/approval of mem_1 without the skill/);
  });

  it("returns the written skill", () => {
    const skill = create(SkillProposalSchema, { name: "deploy-with-argo", path: "/home/maya/.claude/skills/deploy-with-argo/SKILL.md" });
    expect(approvedSkill("mem_1", skill)).toBe(skill);
  });
});
