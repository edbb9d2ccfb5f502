import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../logger.js";
import type { MemoryRecord } from "../memory/memory.js";
import { readTextIfExists, writeFileAtomicAsync } from "../memory-files/markdown-files.js";
import { isDatabaseLocked } from "../store/database-locked.js";
import type { MemoryStore } from "../store/store.js";
import type { VaultJob, VaultJobResult, VaultStore } from "../store/vault-store.js";
import { fileStem, vaultFolder, vaultPath } from "./file-name.js";
import { parseMemoryFile, renderMemoryFile } from "./memory-file.js";

export interface VaultWriterOptions {
  store: MemoryStore;
  vault: VaultStore;
  /** The vault's directory (absolute). */
  dir: string;
  logger: Logger;
  /** Files written per turn of the event loop: a bulk import's files never hold up a request for long. */
  batch?: number;
  /** How often the outbox is looked at when it was empty. */
  pollMs?: number;
}

/** A file memd did not write over, and why. */
export interface HeldFile {
  path: string;
  memoryId: string;
  reason: string;
}

export interface VaultWriterStatus {
  dir: string;
  pending: number;
  files: number;
  lastWriteAt: number | null;
  lastError: string;
  held: HeldFile[];
}

const DEFAULT_BATCH = 32;
const DEFAULT_POLL_MS = 50;
const MAX_HELD = 1000;

/** The hash recorded for a file's text, to tell memd's own writes from edits made since. */
export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Writes each queued memory's Markdown file, off the request path: the database queues a
 * memory in the same transaction as its change (see migration 11), and this drains the queue
 * a batch at a time, the files' I/O in libuv's thread pool so that requests are answered
 * meanwhile. Each file is written atomically (a temporary file flushed to disk, then a rename),
 * and only when its text changed; its job is cleared only once it landed. A file someone changed since memd last wrote it
 * is left as they wrote it and reported (held), never overwritten; a memory that moved to
 * another project or kind moves its file, keeping its name.
 */
export class VaultWriter {
  private timer: NodeJS.Timeout | null = null;
  /** The drain under way, if any: one at a time, so that a memory's writes keep their order. */
  private draining: Promise<void> | null = null;
  private stopped = false;
  private lastWriteAt: number | null = null;
  private lastError = "";
  private readonly held = new Map<string, HeldFile>();
  /** Files written and not yet recorded, by path: the hash of the text memd put there. */
  private readonly unrecorded = new Map<string, string>();
  private readonly batch: number;

  constructor(private readonly options: VaultWriterOptions) {
    this.batch = options.batch ?? DEFAULT_BATCH;
  }

  start(): void {
    fs.mkdirSync(this.options.dir, { recursive: true });
    this.timer = setInterval(() => this.drainSoon(), this.options.pollMs ?? DEFAULT_POLL_MS);
    this.timer.unref();
    this.drainSoon();
  }

  /** Stops polling and waits for the batch being written, so that the database may close after. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.draining;
  }

  status(): VaultWriterStatus {
    return {
      dir: this.options.dir,
      pending: this.options.vault.pending(),
      files: this.options.vault.fileCount(),
      lastWriteAt: this.lastWriteAt,
      lastError: this.lastError,
      held: [...this.held.values()],
    };
  }

  /**
   * True when memd itself put this text at this path and has not recorded it yet: the watcher
   * must not read memd's own write as a person's edit in the moment before the record lands.
   */
  wrote(relative: string, hash: string): boolean {
    return this.unrecorded.get(relative) === hash;
  }

  private drainSoon(): void {
    if (this.draining || this.stopped) return;
    this.draining = this.drain()
      .catch((error: unknown) => {
        // Nothing here may end the daemon: what failed stays queued for the next poll.
        this.lastError = error instanceof Error ? error.message : String(error);
        this.options.logger.warn({ err: error }, "the vault writer stopped a batch; it is tried again");
      })
      .finally(() => {
        this.draining = null;
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.step()) === this.batch) await new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * Writes one batch; returns how many jobs it took (0 after a failure: the rest waits for the
   * next poll). What each file must hold is decided at once, from the database; the files are
   * then written side by side, their I/O off the event loop, and the batch is recorded in one
   * transaction once they landed (a commit per file would cost each a flush of the database).
   */
  private async step(): Promise<number> {
    const jobs = this.options.vault.due(this.batch);
    const claimed = new Set<string>();
    const settled: VaultJobResult[] = [];
    // Run once the batch is recorded: a moved memory's old file goes only when the record no
    // longer names it, so that the watcher does not read its removal as a person's deletion.
    const after: (() => void)[] = [];
    const writes: Promise<void>[] = [];
    let failed = false;
    const fail = (job: VaultJob, error: unknown) => {
      // The job stays queued and is tried again on the next poll (a full disk, a folder made read-only).
      failed = true;
      this.lastError = `${job.memoryId}: ${error instanceof Error ? error.message : String(error)}`;
      this.options.logger.warn({ memoryId: job.memoryId, err: error }, "cannot write the memory's vault file; it is tried again");
    };
    for (const [i, job] of jobs.entries()) {
      // A turn of the event loop between files: a request waits for one file's work, not a batch's.
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      try {
        const { write, landed, result } = this.plan(job, claimed);
        if (write === null) {
          after.push(landed);
          settled.push(result);
          continue;
        }
        writes.push(
          write().then(
            (written) => {
              // Not written: someone changed the file meanwhile. The job stays; the watcher reads their change.
              if (!written) return;
              this.lastWriteAt = Date.now();
              after.push(landed);
              settled.push(result);
            },
            (error: unknown) => fail(job, error),
          ),
        );
      } catch (error) {
        fail(job, error);
      }
    }
    await Promise.all(writes);
    try {
      this.options.vault.settle(settled);
      for (const { file } of settled) if (file && this.unrecorded.get(file.path) === file.hash) this.unrecorded.delete(file.path);
    } catch (error) {
      if (!isDatabaseLocked(error)) throw error;
      // Another process holds the write lock: the files are written, and the next poll finds them so and records them.
      this.lastError = "the database is locked by another process: the files written wait to be recorded";
      return 0;
    }
    for (const done of after) done();
    if (failed) return 0;
    this.lastError = "";
    return jobs.length;
  }

  /**
   * What settling a job takes: the file write to make (null when none is needed), the record to
   * keep, and what to do once that is recorded (the old file of a moved or purged memory removed).
   */
  private plan(job: VaultJob, claimed: Set<string>): { write: (() => Promise<boolean>) | null; landed: () => void; result: VaultJobResult } {
    const { store, vault, dir } = this.options;
    const memory = store.get(job.memoryId);
    const record = vault.fileOf(job.memoryId);
    if (!memory) {
      // Purged: its file goes too, unless someone changed it since memd wrote it.
      const remove = () => {
        if (record && this.unchangedSinceWritten(record.path, record.hash)) fs.rmSync(path.join(dir, record.path), { force: true });
      };
      return { write: null, landed: remove, result: { job, file: null } };
    }
    if (record && !this.unchangedSinceWritten(record.path, record.hash)) {
      this.hold({ path: record.path, memoryId: memory.id, reason: "changed outside memd since memd wrote it, and not read back (see the unreadable files): left as it is, and memd's changes are not written over it" });
      return { write: null, landed: () => undefined, result: { job, file: record } };
    }
    const target = this.targetPath(memory, record?.path, claimed);
    claimed.add(target);
    const text = renderMemoryFile(memory, store.events([memory.id]), { supersedes: this.stemOf(memory.supersedes), supersededBy: this.stemOf(memory.supersededBy) });
    const hash = textHash(text);
    const file = path.join(dir, target);
    const current = readTextIfExists(file);
    const landed = () => {
      if (record && record.path !== target) fs.rmSync(path.join(dir, record.path), { force: true });
      this.held.delete(memory.id);
    };
    const result = { job, file: { memoryId: memory.id, path: target, hash } };
    if (current !== null && textHash(current) === hash) return { write: null, landed, result };
    const found = current === null ? null : textHash(current);
    const write = async () => {
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      // Replaced only if it still holds what was read here: a person's save meanwhile is kept.
      return writeFileAtomicAsync(file, text, () => {
        const now = readTextIfExists(file);
        if ((now === null ? null : textHash(now)) !== found) return false;
        this.unrecorded.set(target, hash);
        return true;
      });
    };
    return { write, landed, result };
  }

  /**
   * Where a memory's file goes: its folder (project and kind) as it is now, under the name it
   * was first given, so that an edit of the content does not rename the file. A name another
   * memory's file (or a file of someone's own, or another write of this batch) already has
   * takes the whole id instead.
   */
  private targetPath(memory: MemoryRecord, previous: string | undefined, claimed: ReadonlySet<string>): string {
    const wanted = previous === undefined ? vaultPath(memory) : path.posix.join(vaultFolder(memory), path.posix.basename(previous));
    if (!claimed.has(wanted) && this.freeFor(wanted, memory.id)) return wanted;
    return path.posix.join(vaultFolder(memory), `${fileStem(memory)}-${memory.id.toLowerCase()}.md`);
  }

  private freeFor(relative: string, memoryId: string): boolean {
    const holder = this.options.vault.fileAt(relative);
    if (holder) return holder.memoryId === memoryId;
    const text = readTextIfExists(path.join(this.options.dir, relative));
    if (text === null) return true;
    // A file nobody recorded: it is this memory's if it says so (a vault the database is rebuilt from).
    const parsed = parseMemoryFile(text);
    return parsed.ok && parsed.memory.id === memoryId;
  }

  private unchangedSinceWritten(relative: string, hash: string): boolean {
    const text = readTextIfExists(path.join(this.options.dir, relative));
    return text === null || textHash(text) === hash;
  }

  /** The name (without .md) of a linked memory's file, for a wikilink; null for none. */
  private stemOf(memoryId: string): string | null {
    if (memoryId === "") return null;
    const record = this.options.vault.fileOf(memoryId);
    if (record) return path.posix.basename(record.path, ".md");
    const linked = this.options.store.get(memoryId);
    return linked ? fileStem(linked) : null;
  }

  private hold(file: HeldFile): void {
    if (!this.held.has(file.memoryId)) this.options.logger.warn({ path: file.path, memoryId: file.memoryId }, "vault file changed outside memd: left as it is");
    if (this.held.size < MAX_HELD || this.held.has(file.memoryId)) this.held.set(file.memoryId, file);
  }
}
