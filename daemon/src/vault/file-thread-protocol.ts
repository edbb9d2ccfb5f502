import type { VaultFileRecord } from "../store/vault-store.js";
import type { WriteOutcome, WriteTask } from "./file-writing.js";

/** What the vault's file thread is given when it starts. */
export interface FileThreadSettings {
  /** The vault's directory (absolute). */
  dir: string;
  /** The largest file memd reads, in bytes (see VaultFiles). */
  maxFileBytes: number;
}

/**
 * To the file thread: a batch to write (answered by id), files to remove (not answered), or the
 * temporary files of writes cut off by a crash to remove, those last written before `before` (answered by id).
 */
export type FileThreadRequest =
  | { type: "write"; id: number; tasks: WriteTask[] }
  | { type: "remove"; files: VaultFileRecord[] }
  | { type: "clean"; id: number; before: number };

/** From the file thread: a batch's outcomes, one per task in order, or the temporary files removed. */
export type FileThreadReply = { type: "written"; id: number; outcomes: WriteOutcome[] } | { type: "cleaned"; id: number; removed: string[] };
