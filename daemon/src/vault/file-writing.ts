import type { MemoryEvent, MemoryRecord } from "../memory/memory.js";
import { redactDeep } from "../redact/redact-deep.js";
import type { VaultFileRecord } from "../store/vault-store.js";
import { foreignProperties, type MemoryFileLinks, parseMemoryFile, renderMemoryFile, textHash } from "./memory-file.js";
import { type VaultFiles, type VaultRead } from "./vault-files.js";
import { LINKS_REFUSED } from "./vault-folders.js";

/**
 * The file side of the vault writer, run in its own thread (file-thread.ts): rendering a
 * memory's file and the reads and writes around it are most of a file's cost, and on the
 * daemon's event loop they would hold up the requests answered meanwhile. What it needs from
 * the database comes with each task; what it did goes back as an outcome, recorded by the writer.
 * Every file is reached through VaultFiles, which follows no link inside the vault.
 */

/** One memory's file to write, with everything from the database it takes. */
export interface WriteTask {
  memory: MemoryRecord;
  history: MemoryEvent[];
  links: MemoryFileLinks;
  /** The file memd last wrote for it, if any. */
  record: VaultFileRecord | null;
  /** Where it goes: its folder as it is now, under the name it was first given. */
  wanted: string;
  /** Where it goes when `wanted` is another memory's (or a person's) file: the name with the whole id. */
  fallback: string;
  /** The memory whose file record is at `wanted`; null when no record is. */
  wantedHolder: string | null;
}

export type WriteOutcome =
  /** The file holds the memory as stored (written now, or it already did): record it. */
  | { kind: "written" | "unchanged"; file: VaultFileRecord }
  /** Someone changed the file since memd wrote it and memd has not read it back: left as it is. */
  | { kind: "held"; path: string }
  /** Someone changed the file while it was being written: their text is kept, the job stays. */
  | { kind: "raced" }
  /** It could not be written (a full disk, a folder made read-only, a link in the way): the job stays. */
  | { kind: "failed"; message: string };

/**
 * Writes a batch of files: where each goes is decided in order (two memories of the batch never
 * take the same name), then the writes run side by side. Each file is written atomically and
 * only when its text changed, and replaced only if it still holds what was read before.
 */
export async function writeMemoryFiles(files: VaultFiles, tasks: readonly WriteTask[]): Promise<WriteOutcome[]> {
  const claimed = new Set<string>();
  return Promise.all(
    tasks.map((task) => {
      try {
        return writeOne(files, task, claimed);
      } catch (error) {
        return Promise.resolve(failed(error));
      }
    }),
  );
}

/** Removes files memd wrote that are no longer any memory's, unless someone changed them since. */
export function removeUnchangedFiles(files: VaultFiles, records: readonly VaultFileRecord[]): void {
  for (const record of records) files.remove(record.path, (text) => textHash(text) === record.hash);
}

/** Decided at once (the batch's names are claimed in order); the write itself is awaited by the caller. */
function writeOne(files: VaultFiles, task: WriteTask, claimed: Set<string>): Promise<WriteOutcome> {
  const { memory, record } = task;
  // The file memd last wrote, read once: to tell a person's change, to keep their properties, and as the text it replaces.
  const atRecord = record === null ? null : textOf(files.read(record.path), record.path);
  if (record && atRecord !== null && textHash(atRecord) !== record.hash) return Promise.resolve({ kind: "held", path: record.path });
  const target = !claimed.has(task.wanted) && freeFor(files, task) ? task.wanted : task.fallback;
  claimed.add(target);
  const current = record?.path === target ? atRecord : textOf(files.read(target), target);
  // The properties a person added to the file are kept, also when the file moves to another
  // folder, and pass the redactor as everything memd writes does.
  const previous = record ? atRecord : current;
  const foreign = previous === null ? {} : foreignProperties(previous);
  if (foreign === null) return Promise.resolve({ kind: "failed", message: `${target}: its frontmatter cannot be read back, so memd does not write over it` });
  const text = renderMemoryFile(memory, task.history, task.links, redactDeep(foreign) as Record<string, unknown>);
  const file = { memoryId: memory.id, path: target, hash: textHash(text) };
  const found = current === null ? null : textHash(current);
  if (found === file.hash) return Promise.resolve({ kind: "unchanged", file });
  // Replaced only if it still holds what was read here: a person's save meanwhile is kept.
  return files
    .write(target, text, () => {
      const now = files.read(target);
      return (now.kind === "text" ? textHash(now.text) : now.kind === "missing" ? null : undefined) === found;
    })
    .then((written): WriteOutcome => (written ? { kind: "written", file } : { kind: "raced" }))
    .catch(failed);
}

/** A file's text; null when there is none; a link or anything else memd does not read stops the write, with why. */
function textOf(read: VaultRead, relative: string): string | null {
  if (read.kind === "text") return read.text;
  if (read.kind === "missing") return null;
  throw new Error(read.kind === "link" ? `${read.link} is a symbolic link: ${LINKS_REFUSED}, and leaves this one alone` : `${relative} ${read.reason}`);
}

function freeFor(files: VaultFiles, task: WriteTask): boolean {
  if (task.wantedHolder !== null) return task.wantedHolder === task.memory.id;
  const found = files.read(task.wanted);
  if (found.kind === "missing") return true;
  if (found.kind !== "text") return false;
  // A file nobody recorded: it is this memory's if it says so (a vault the database is rebuilt from).
  const parsed = parseMemoryFile(found.text);
  return parsed.ok && parsed.memory.id === task.memory.id;
}

function failed(error: unknown): WriteOutcome {
  return { kind: "failed", message: error instanceof Error ? error.message : String(error) };
}
