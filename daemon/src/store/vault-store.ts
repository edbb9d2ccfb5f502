/** A memory waiting for its Markdown file to be written (or removed). */
export interface VaultJob {
  memoryId: string;
  /** Changes whenever the memory is queued again, so a write that finished late cannot clear a newer job. */
  token: number;
}

/** What became of a job: the file its memory now has, or null for none (purged). */
export interface VaultJobResult {
  job: VaultJob;
  file: VaultFileRecord | null;
}

/** The file a memory was last written to (or read from), relative to the vault, and the hash of that text. */
export interface VaultFileRecord {
  memoryId: string;
  path: string;
  hash: string;
}

/**
 * The vault's side of the database: the durable outbox of memories whose files must be
 * written, filled by the database itself in the same transaction as each change while the
 * vault is on, and the record of the files written.
 */
export interface VaultStore {
  /**
   * Turns queueing on for the vault at `dir`, or off (null). A vault turned on, or moved to
   * another directory, has every memory queued, in one transaction; returns how many.
   */
  configure(dir: string | null): number;
  /** Up to `limit` queued jobs with memory ids after `after` ("" for all), in id order. */
  due(limit: number, after?: string): VaultJob[];
  /**
   * Settles a batch of jobs in one transaction: each memory's file recorded (or forgotten, for
   * null), and its job dropped if its token is unchanged (a job queued again since stays).
   */
  settle(results: readonly VaultJobResult[]): void;
  /** How many memories wait for their file. */
  pending(): number;
  /** Queues a memory's file to be written again (after a person's edit was read: the file then holds what memd stores). */
  queue(memoryId: string): void;
  fileOf(memoryId: string): VaultFileRecord | undefined;
  /** The record of the file at a path, whichever memory it belongs to. */
  fileAt(path: string): VaultFileRecord | undefined;
  /** Records files, in one transaction (a rebuild records thousands). */
  putFiles(records: readonly VaultFileRecord[]): void;
  forgetFile(memoryId: string): void;
  /** How many memories have a file. */
  fileCount(): number;
  /** Every file record, in path order. */
  files(): VaultFileRecord[];
}
