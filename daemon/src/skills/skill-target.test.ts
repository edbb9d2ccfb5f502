import { describe, expect, it } from "vitest";
import { chooseSkillsDir, type SkillDirs } from "./skill-target.js";

const dirs: SkillDirs = { user: "/home/u/.claude/skills", memoryProject: "/src/api/.claude/skills", requestProject: "/src/web/.claude/skills" };
const unknownRoots: SkillDirs = { ...dirs, memoryProject: null, requestProject: null };

describe("chooseSkillsDir", () => {
  it("sends global memories to the user's skills and project memories to the project's", () => {
    expect(chooseSkillsDir({ project: "global" }, "auto", dirs)).toEqual({ scope: "user", dir: dirs.user });
    expect(chooseSkillsDir({ project: "api" }, "auto", dirs)).toEqual({ scope: "project", dir: dirs.memoryProject });
  });

  it("falls back to the user's skills for a project without a known directory", () => {
    expect(chooseSkillsDir({ project: "api" }, "auto", unknownRoots)).toEqual({ scope: "user", dir: dirs.user });
  });

  it("follows an explicit scope: user always works, project uses the request's project for a global memory", () => {
    expect(chooseSkillsDir({ project: "api" }, "user", dirs)).toEqual({ scope: "user", dir: dirs.user });
    expect(chooseSkillsDir({ project: "global" }, "project", dirs)).toEqual({ scope: "project", dir: dirs.requestProject });
  });

  it("explains when the project scope has no directory to write to", () => {
    expect(chooseSkillsDir({ project: "global" }, "project", unknownRoots)).toEqual({ error: expect.stringContaining("scope user") });
    expect(chooseSkillsDir({ project: "api" }, "project", unknownRoots)).toEqual({ error: expect.stringContaining("project api has no known directory") });
  });
});
