import path from "node:path";
import { GLOBAL_PROJECT, type MemoryRecord } from "../memory/memory.js";

export type SkillScopeName = "user" | "project";

/** Where skills live for one request: the user's skills and the project skill folders known so far. */
export interface SkillDirs {
  /** <claude home>/skills. */
  user: string;
  /** <root>/.claude/skills of the memory's own project, when its root directory is known. */
  memoryProject: string | null;
  /** <root>/.claude/skills of the request's project (from its cwd), when known. */
  requestProject: string | null;
}

export type SkillTarget = { scope: SkillScopeName; dir: string } | { error: string };

/** The skills folder of a project root. */
export function projectSkillsDir(root: string): string {
  return path.join(root, ".claude", "skills");
}

/**
 * Which skills folder a memory's skill goes to. Unasked ("auto"), a global memory goes to the
 * user's skills and a project memory to its project's, falling back to the user's when the
 * project has no known directory (it was named, never derived from a working directory).
 * Asked for "project", a global memory goes to the request's project.
 */
export function chooseSkillsDir(memory: Pick<MemoryRecord, "project">, requested: SkillScopeName | "auto", dirs: SkillDirs): SkillTarget {
  const global = memory.project === GLOBAL_PROJECT;
  if (requested === "user") return { scope: "user", dir: dirs.user };
  if (requested === "auto") {
    if (!global && dirs.memoryProject !== null) return { scope: "project", dir: dirs.memoryProject };
    return { scope: "user", dir: dirs.user };
  }
  const dir = global ? dirs.requestProject : dirs.memoryProject;
  if (dir !== null) return { scope: "project", dir };
  return {
    error: global
      ? "this memory is global and the request names no project directory: run from inside the project (cwd), or use scope user"
      : `project ${memory.project} has no known directory (it was named, never derived from a working directory): use scope user`,
  };
}
