import { describe, expect, it } from "vitest";
import { pointedProjects } from "./gather-candidates.js";

const absent = (projects: Record<string, number>) => ({ phrase: ["word"], projects: new Map(Object.entries(projects)) });

describe("pointedProjects", () => {
  it("points to the project that holds at least half of the uses of a word the current project lacks", () => {
    expect([...pointedProjects([absent({ analytics: 19 }), absent({ infra: 6, web: 1 })])].sort()).toEqual(["analytics", "infra"]);
  });

  it("points nowhere for a word that many projects use and the current one merely never said", () => {
    expect(pointedProjects([absent({ a: 2, b: 2, c: 1, d: 1 })]).size).toBe(0);
  });

  it("points to neither of two projects that share a word evenly", () => {
    expect(pointedProjects([absent({ a: 3, b: 3 })]).size).toBe(0);
  });
});
