import { describe, expect, it } from "vitest";
import { GLOBAL_PROJECT, localProjects } from "./memory.js";

describe("localProjects", () => {
  it("reads a project with the global memories, the global project once, and every project when none is named", () => {
    expect(localProjects("api")).toEqual(["api", GLOBAL_PROJECT]);
    expect(localProjects(GLOBAL_PROJECT)).toEqual([GLOBAL_PROJECT]);
    expect(localProjects(undefined)).toBeUndefined();
  });

  it("leaves the global memories out when asked", () => {
    expect(localProjects("api", true)).toEqual(["api"]);
    expect(localProjects(undefined, true)).toBeUndefined();
  });
});
