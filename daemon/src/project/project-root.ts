import fs from "node:fs";
import path from "node:path";

export interface ProjectRoot {
  /** The directory that identifies the project: a repository's main worktree, or the plain directory. */
  root: string;
  /** The name the project is known by unless another root holds it. */
  name: string;
}

/**
 * Finds the project a working directory belongs to. Inside a git repository the identity is
 * the repository's common git directory, so every worktree of one repository is one project;
 * outside one, the directory itself. Reads the filesystem but never runs git.
 */
export function resolveProjectRoot(cwd: string): ProjectRoot {
  const start = path.resolve(cwd);
  for (let dir = start; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, ".git");
    const commonDir = gitCommonDir(dotGit);
    if (commonDir !== null) {
      // The main worktree's .git directory names the repository by its parent folder.
      const root = path.basename(commonDir) === ".git" ? path.dirname(commonDir) : commonDir;
      return { root, name: nameOf(root) };
    }
    if (path.dirname(dir) === dir) break;
  }
  return { root: start, name: nameOf(start) };
}

function gitCommonDir(dotGit: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dotGit);
  } catch {
    return null;
  }
  if (stat.isDirectory()) return dotGit;
  if (!stat.isFile()) return null;
  // A linked worktree (or submodule) has a .git file: "gitdir: <path>".
  const match = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, "utf8"));
  if (!match) return null;
  const gitDir = path.resolve(path.dirname(dotGit), (match[1] as string).trim());
  try {
    const common = fs.readFileSync(path.join(gitDir, "commondir"), "utf8").trim();
    return path.resolve(gitDir, common);
  } catch {
    return gitDir;
  }
}

function nameOf(root: string): string {
  return path.basename(root).replace(/\.git$/, "") || root;
}
