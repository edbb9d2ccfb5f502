import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../logger.js";
import type { MemoryRecord } from "../memory/memory.js";
import { isDatabaseLocked } from "../store/database-locked.js";
import type { MemoryRecords } from "../store/store.js";
import type { VaultFileRecord, VaultJob, VaultJobResult, VaultStore } from "../store/vault-store.js";
import { fileStem, vaultFolder, vaultPath } from "./file-name.js";
import { FileThread } from "./file-thread-client.js";
import type { WriteTask } from "./file-writing.js";

export interface VaultWriterOptions {
  store: MemoryRecords;
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

/**
 * Writes each queued memory's Markdown file, off the request path: the database queues a
 * memory in the same transaction as its change (see migration 11), and this drains the queue
 * a batch at a time. What each file must hold is read from the database here; rendering it and
 * the file I/O run in a thread of their own (file-thread.ts), so that the requests answered
 * meanwhile do not wait for them. Each file is written atomically (a temporary file flushed to
 * disk, then a rename), and only when its text changed; its job is cleared only once it landed.
 * A file someone changed since memd last wrote it is left as they wrote it and reported (held),
 * never overwritten; a memory that moved to another project or kind moves its file, keeping its name.
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
  /** The paths the batch with the file thread may change, until its outcomes are recorded. */
  private readonly writing = new Set<string>();
  private readonly batch: number;
  private readonly thread: FileThread;

  constructor(private readonly options: VaultWriterOptions) {
    this.batch = options.batch ?? DEFAULT_BATCH;
    this.thread = new FileThread({ dir: options.dir });
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
    await this.thread.close();
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

  /**
   * True while the file thread may be changing this path: what the watcher reads there now may
   * be memd's own write whose hash is not known here yet, so it looks again once this is false.
   */
  busy(relative: string): boolean {
    return this.writing.has(relative);
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
        this.writing.clear();
        this.draining = null;
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.step()) === this.batch) await new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * Writes one batch; returns how many jobs it took (0 after a failure: the rest waits for the
   * next poll). The batch is recorded in one transaction once its files landed (a commit per
   * file would cost each a flush of the database), and only then are the files of moved and
   * purged memories removed, so that the watcher does not read a removal as a person's deletion.
   */
  private async step(): Promise<number> {
    const { store, vault } = this.options;
    const jobs = vault.due(this.batch);
    const settled: VaultJobResult[] = [];
    const removals: VaultFileRecord[] = [];
    const writes: { job: VaultJob; record: VaultFileRecord | null; task: WriteTask }[] = [];
    for (const job of jobs) {
      const memory = store.get(job.memoryId);
      const record = vault.fileOf(job.memoryId) ?? null;
      if (memory) {
        writes.push({ job, record, task: this.task(memory, record) });
        continue;
      }
      // Purged: its file goes too, unless someone changed it since memd wrote it.
      settled.push({ job, file: null });
      if (record) removals.push(record);
    }
    for (const { task } of writes) for (const touched of [task.record?.path, task.wanted, task.fallback]) if (touched) this.writing.add(touched);
    const outcomes = writes.length === 0 ? [] : await this.thread.write(writes.map((w) => w.task));
    let failed = false;
    outcomes.forEach((outcome, i) => {
      const { job, record, task } = writes[i] as (typeof writes)[number];
      switch (outcome.kind) {
        case "written":
        case "unchanged":
          if (outcome.kind === "written") {
            this.unrecorded.set(outcome.file.path, outcome.file.hash);
            this.lastWriteAt = Date.now();
          }
          settled.push({ job, file: outcome.file });
          if (record && record.path !== outcome.file.path) removals.push(record);
          this.held.delete(task.memory.id);
          return;
        case "held":
          this.hold({ path: outcome.path, memoryId: task.memory.id, reason: "changed outside memd since memd wrote it, and not read back (see the unreadable files): left as it is, and memd's changes are not written over it" });
          settled.push({ job, file: record });
          return;
        case "raced":
          // Someone changed the file meanwhile. The job stays; the watcher reads their change.
          return;
        case "failed":
          // The job stays queued and is tried again on the next poll (a full disk, a folder made read-only).
          failed = true;
          this.lastError = `${job.memoryId}: ${outcome.message}`;
          this.options.logger.warn({ memoryId: job.memoryId, err: outcome.message }, "cannot write the memory's vault file; it is tried again");
      }
    });
    try {
      vault.settle(settled);
      for (const { file } of settled) if (file && this.unrecorded.get(file.path) === file.hash) this.unrecorded.delete(file.path);
    } catch (error) {
      if (!isDatabaseLocked(error)) throw error;
      // Another process holds the write lock: the files are written, and the next poll finds them so and records them.
      this.lastError = "the database is locked by another process: the files written wait to be recorded";
      return 0;
    } finally {
      this.writing.clear();
    }
    this.thread.remove(removals);
    if (failed) return 0;
    this.lastError = "";
    return jobs.length;
  }

  /** What the file thread needs to write a memory's file, read from the database. */
  private task(memory: MemoryRecord, record: VaultFileRecord | null): WriteTask {
    const { store, vault } = this.options;
    const folder = vaultFolder(memory);
    // Its folder as it is now, under the name it was first given, so that an edit of the
    // content does not rename the file; the whole id when that name is taken.
    const wanted = record === null ? vaultPath(memory) : path.posix.join(folder, path.posix.basename(record.path));
    return {
      memory,
      history: store.events([memory.id]),
      links: { supersedes: this.stemOf(memory.supersedes), supersededBy: this.stemOf(memory.supersededBy) },
      record,
      wanted,
      fallback: path.posix.join(folder, `${fileStem(memory)}-${memory.id.toLowerCase()}.md`),
      wantedHolder: vault.fileAt(wanted)?.memoryId ?? null,
    };
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
