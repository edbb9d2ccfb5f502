import type { VaultFileRecord } from "../store/vault-store.js";
import type { WriteOutcome, WriteTask } from "./file-writing.js";

/** What the vault's file thread is given when it starts. */
export interface FileThreadSettings {
  /** The vault's directory (absolute). */
  dir: string;
}

/** To the file thread: a batch to write (answered by id), or files to remove (not answered). */
export type FileThreadRequest = { type: "write"; id: number; tasks: WriteTask[] } | { type: "remove"; files: VaultFileRecord[] };

/** From the file thread: a batch's outcomes, one per task in order. */
export interface FileThreadReply {
  type: "written";
  id: number;
  outcomes: WriteOutcome[];
}
