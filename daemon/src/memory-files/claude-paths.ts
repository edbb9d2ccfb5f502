import path from "node:path";

/**
 * Claude Code's per-project folder under <claude home>/projects/: the project's root path with
 * every character other than an ASCII letter or digit replaced by "-" (so /home/maya/code/acme-api
 * becomes -home-maya-code-acme-api). Claude Code keys auto memory by the git repository's root,
 * which is also how memd names a project's root.
 */
export function claudeProjectFolder(projectRoot: string): string {
  return projectRoot.replace(/[^a-zA-Z0-9]/g, "-");
}

/** Where Claude Code keeps a project's auto-memory notes. */
export function claudeMemoryDir(claudeHome: string, projectRoot: string): string {
  return path.join(claudeHome, "projects", claudeProjectFolder(projectRoot), "memory");
}

/** The auto-memory index Claude Code loads at session start: the default file MEMORY.md sync writes. */
export function claudeMemoryIndex(claudeHome: string, projectRoot: string): string {
  return path.join(claudeMemoryDir(claudeHome, projectRoot), INDEX_NAME);
}

/** The index's file name; it is never a note, so compress never touches it. */
export const INDEX_NAME = "MEMORY.md";

export function isIndexFile(file: string): boolean {
  return path.basename(file).toUpperCase() === INDEX_NAME.toUpperCase();
}

export function isMarkdownFile(file: string): boolean {
  return /\.md$/i.test(file);
}
