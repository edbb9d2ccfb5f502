import path from "node:path";
import { InvalidInputError } from "../errors.js";
import { validateProjectName } from "../memory/validate.js";
import { resolveProjectRoot } from "../project/project-root.js";
import type { MemoryStore } from "../store/store.js";

export interface ProjectHint {
  /** An explicit project name; wins over cwd. */
  project: string;
  /** A working directory to derive the project from. */
  cwd: string;
}

/** Turns a request's project name or working directory into a project name. */
export type ProjectResolver = (hint: ProjectHint) => string | undefined;

export function createProjectResolver(store: MemoryStore): ProjectResolver {
  return ({ project, cwd }) => {
    if (project.trim() !== "") return validateProjectName(project);
    if (cwd === "") return undefined;
    if (!path.isAbsolute(cwd)) {
      throw new InvalidInputError(`cwd must be an absolute path, got "${cwd.slice(0, 80)}"`);
    }
    const { root, name } = resolveProjectRoot(cwd);
    return store.projectForRoot(root, name);
  };
}
