import fs from "node:fs";
import path from "node:path";
import type { MemoryEvent, MemoryRecord } from "../memory/memory.js";
import { readTextIfExists, writeFileAtomicAsync } from "../memory-files/markdown-files.js";
import type { VaultFileRecord } from "../store/vault-store.js";
import { foreignProperties, type MemoryFileLinks, parseMemoryFile, renderMemoryFile, textHash } from "./memory-file.js";

/**
 * The file side of the vault writer, run in its own thread (file-thread.ts): rendering a
 * memory's file and the reads and writes around it are most of a file's cost, and on the
 * daemon's event loop they would hold up the requests answered meanwhile. What it needs from
 * the database comes with each task; what it did goes back as an outcome, recorded by the writer.
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
  /** It could not be written (a full disk, a folder made read-only): the job stays. */
  | { kind: "failed"; message: string };

/**
 * Writes a batch of files: where each goes is decided in order (two memories of the batch never
 * take the same name), then the writes run side by side. Each file is written atomically and
 * only when its text changed, and replaced only if it still holds what was read before.
 */
export async function writeMemoryFiles(dir: string, tasks: readonly WriteTask[], folders: FolderCache = new FolderCache()): Promise<WriteOutcome[]> {
  const claimed = new Set<string>();
  return Promise.all(
    tasks.map((task) => {
      try {
        return writeOne(dir, task, claimed, folders);
      } catch (error) {
        return Promise.resolve(failed(error));
      }
    }),
  );
}

/**
 * The folders known to exist, so that a file's folder is made once and not asked for at every
 * write (a quarter of the file thread's time). A write that fails forgets its folder: a person
 * may have deleted it, and the next try makes it again.
 */
export class FolderCache {
  private readonly made = new Set<string>();

  async ensure(folder: string): Promise<void> {
    if (this.made.has(folder)) return;
    await fs.promises.mkdir(folder, { recursive: true });
    this.made.add(folder);
  }

  forget(folder: string): void {
    this.made.delete(folder);
  }
}

/** Removes files memd wrote that are no longer any memory's, unless someone changed them since. */
export function removeUnchangedFiles(dir: string, files: readonly VaultFileRecord[]): void {
  for (const record of files) if (unchangedSinceWritten(dir, record)) fs.rmSync(path.join(dir, record.path), { force: true });
}

/** Decided at once (the batch's names are claimed in order); the write itself is awaited by the caller. */
function writeOne(dir: string, task: WriteTask, claimed: Set<string>, folders: FolderCache): Promise<WriteOutcome> {
  const { memory, record } = task;
  // The file memd last wrote, read once: to tell a person's change, to keep their properties, and as the text it replaces.
  const atRecord = record === null ? null : readTextIfExists(path.join(dir, record.path));
  if (record && atRecord !== null && textHash(atRecord) !== record.hash) return Promise.resolve({ kind: "held", path: record.path });
  const target = !claimed.has(task.wanted) && freeFor(dir, task) ? task.wanted : task.fallback;
  claimed.add(target);
  const absolute = path.join(dir, target);
  const current = record?.path === target ? atRecord : readTextIfExists(absolute);
  // The properties a person added to the file are kept, also when the file moves to another folder.
  const previous = record ? atRecord : current;
  const text = renderMemoryFile(memory, task.history, task.links, previous === null ? {} : foreignProperties(previous));
  const file = { memoryId: memory.id, path: target, hash: textHash(text) };
  const found = current === null ? null : textHash(current);
  if (found === file.hash) return Promise.resolve({ kind: "unchanged", file });
  const folder = path.dirname(absolute);
  return (async (): Promise<WriteOutcome> => {
    await folders.ensure(folder);
    // Replaced only if it still holds what was read here: a person's save meanwhile is kept.
    const written = await writeFileAtomicAsync(absolute, text, () => {
      const now = readTextIfExists(absolute);
      return (now === null ? null : textHash(now)) === found;
    });
    return written ? { kind: "written", file } : { kind: "raced" };
  })().catch((error: unknown) => {
    folders.forget(folder);
    return failed(error);
  });
}

function freeFor(dir: string, task: WriteTask): boolean {
  if (task.wantedHolder !== null) return task.wantedHolder === task.memory.id;
  const text = readTextIfExists(path.join(dir, task.wanted));
  if (text === null) return true;
  // A file nobody recorded: it is this memory's if it says so (a vault the database is rebuilt from).
  const parsed = parseMemoryFile(text);
  return parsed.ok && parsed.memory.id === task.memory.id;
}

function unchangedSinceWritten(dir: string, record: VaultFileRecord): boolean {
  const text = readTextIfExists(path.join(dir, record.path));
  return text === null || textHash(text) === record.hash;
}

function failed(error: unknown): WriteOutcome {
  return { kind: "failed", message: error instanceof Error ? error.message : String(error) };
}
