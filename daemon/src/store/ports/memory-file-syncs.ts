/** Which projects have a MEMORY.md section that memd keeps current, so that the syncs outlive a restart. */
export interface MemoryFileSyncs {
  /** Every project's sync, by project name. */
  all(): MemoryFileSyncRecord[];
  /** Records a project's sync, replacing the one it had. */
  put(sync: MemoryFileSyncRecord): void;
  /** Forgets a project's sync; returns whether there was one. */
  delete(project: string): boolean;
}

/** A project whose MEMORY.md section memd keeps current. */
export interface MemoryFileSyncRecord {
  project: string;
  /** The absolute path of the Markdown file. */
  path: string;
  enabledAt: number;
  /** True when memd created the file, so that disabling may remove it again if nothing else is left in it. */
  createdFile: boolean;
}
