import { refuseSecretIn } from "../memory/identifier-secrets.js";
import { validateAbsolutePath, validateProjectName } from "../memory/validate.js";
import { resolveProjectRoot } from "../project/project-root.js";
import type { ProjectRegistry } from "../store/store.js";

export interface ProjectHint {
  /** An explicit project name; wins over cwd. */
  project: string;
  /** A working directory to derive the project from. */
  cwd: string;
}

/** Turns a request's project name or working directory into a project name. */
export type ProjectResolver = (hint: ProjectHint) => string | undefined;

export function createProjectResolver(store: ProjectRegistry): ProjectResolver {
  return ({ project, cwd }) => {
    if (project.trim() !== "") return refuseSecretIn("project", validateProjectName(project));
    if (cwd === "") return undefined;
    const { root, name } = resolveProjectRoot(validateAbsolutePath("cwd", cwd, "the absolute path of the working directory"));
    return store.projectForRoot(root, name);
  };
}

/** A project filter a request names without a working directory: that project, or every project (undefined) when empty. */
export function namedProjectFilter(resolve: ProjectResolver, project: string): string | undefined {
  return resolve({ project, cwd: "" });
}
