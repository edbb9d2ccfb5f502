/**
 * The projects memories belong to: which directory each name stands for, and a change counter
 * per project that lets a watcher (MEMORY.md sync) tell whether a project was written to.
 */
export interface ProjectRegistry {
  /** Every project with memories, most recently saved into first. */
  projects(): ProjectInfo[];
  /**
   * The project name for a directory, registering it on first sight: `preferredName`
   * unless another directory already holds that name.
   */
  projectForRoot(root: string, preferredName: string): string;
  /** The root directory registered for a project name, if any. */
  projectRoot(name: string): string | undefined;
  /** A counter per project that every write to one of its memories raises; projects never written are absent. */
  projectVersions(projects: readonly string[]): Map<string, number>;
}

export interface ProjectInfo {
  name: string;
  root: string;
  activeCount: number;
  lastSaveAt: number | null;
}
