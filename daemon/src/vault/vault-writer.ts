import fs from "node:fs";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Logger } from "../logger.js";
import type { MemoryRecord } from "../memory/memory.js";
import { isDatabaseLocked } from "../store/database-locked.js";
import type { ChangeFeed, MemoryRecords } from "../store/store.js";
import type { VaultFileRecord, VaultJob, VaultJobResult, VaultStore } from "../store/vault-store.js";
import { fileStem, vaultFolder, vaultPath } from "./file-name.js";
import { FileThread } from "./file-thread-client.js";
import type { WriteOutcome, WriteTask } from "./file-writing.js";
import { FIRST_RETRY_MS, MAX_RETRY_MS, WriteRetries } from "./write-retries.js";
import { backoffMs } from "../backoff.js";

export interface VaultWriterOptions {
  store: MemoryRecords;
  vault: VaultStore;
  /** Wakes the writer after each commit that queued a file, whichever write queued it. */
  changes: Pick<ChangeFeed, "onQueued">;
  /** The vault's directory (absolute). */
  dir: string;
  /** The largest file memd reads, in bytes (see VaultFiles). */
  maxFileBytes: number;
  logger: Logger;
  /** Files written per turn of the event loop: a bulk import's files never hold up a request for long. */
  batch?: number;
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
  /** Files that could not be written, each tried again after a wait that doubles up to MAX_RETRY_MS. */
  failing: HeldFile[];
}

const DEFAULT_BATCH = 32;
/** How soon jobs left neither written nor waiting (a file a person changed meanwhile, a page not read yet) are looked at again. */
const AGAIN_MS = 50;
const MAX_HELD = 1000;
/** At most one warning in this time for files that failed: a vault on a full disk fails every file. */
const WARN_EVERY_MS = 60_000;


/**
 * Writes each queued memory's Markdown file, off the request path: the database queues a
 * memory in the same transaction as its change (see migration 11), and this drains the queue
 * a batch at a time. What each file must hold is read from the database here; rendering it and
 * the file I/O run in a thread of their own (file-thread.ts), so that the requests answered
 * meanwhile do not wait for them. Each file is written atomically (a temporary file flushed to
 * disk, then a rename), and only when its text changed; its job is cleared only once it landed.
 * A file someone changed since memd last wrote it is left as they wrote it and reported (held),
 * never overwritten; a memory that moved to another project or kind moves its file, keeping its name.
 *
 * No file can make the writer loop: a job whose file fails (a full disk, a link in the way, a
 * thread that stopped on it) waits, 1 s after its first failure and twice as long after each
 * next one, up to 10 minutes, and is then tried alone, so that one bad file fails by itself;
 * a new change of its memory is tried at once. The outbox is read a page at a time from where
 * the last page ended, so that waiting jobs never stand in front of the others.
 */
export class VaultWriter {
  /** The next look at the outbox for jobs that wait (after a failure, or while the database was locked). */
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: () => void = () => undefined;
  /** The drain under way, if any: one at a time, so that a memory's writes keep their order. */
  private draining: Promise<void> | null = null;
  /** Jobs were queued while a drain was under way: another follows it. */
  private again = false;
  /** The last drain met a file a person changed meanwhile: its job stays, to be tried again soon. */
  private raced = false;
  private stopped = false;
  private lastWriteAt: number | null = null;
  private lastError = "";
  private readonly held = new Map<string, HeldFile>();
  private readonly retries = new WriteRetries();
  /** The outbox is read in pages after this memory id; "" starts again from the first. */
  private cursor = "";
  private lastWarnAt = -Infinity;
  /** After the writer itself failed or found the database locked (not one file): no drain before pausedUntil. */
  private pausedUntil = 0;
  private pauseMs = 0;
  private pauses = 0;
  private readonly startedAt = Date.now();
  /** Files written and not yet recorded, by path: the hash of the text memd put there. */
  private readonly unrecorded = new Map<string, string>();
  /** The paths the batch with the file thread may change, until its outcomes are recorded. */
  private readonly writing = new Set<string>();
  private readonly batch: number;
  private readonly thread: FileThread;

  constructor(private readonly options: VaultWriterOptions) {
    this.batch = options.batch ?? DEFAULT_BATCH;
    this.thread = new FileThread({ dir: options.dir, maxFileBytes: options.maxFileBytes });
  }

  start(): void {
    fs.mkdirSync(this.options.dir, { recursive: true });
    // First in the file thread's queue, so before any write of this daemon: what is left is a crash's.
    void this.thread
      .clean(this.startedAt)
      .then((removed) => {
        if (removed.length > 0) this.options.logger.info({ removed: removed.length, first: removed[0] }, "removed temporary files of vault writes cut off by a crash");
      })
      .catch((error: unknown) => this.options.logger.warn({ err: error }, "could not remove the temporary files of vault writes cut off by a crash"));
    this.unsubscribe = this.options.changes.onQueued("vault", () => this.drainSoon());
    this.drainSoon();
  }

  /** Stops and waits for the batch being written, so that the database may close after. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
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
      failing: this.retries.list(MAX_HELD, Date.now()),
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
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    if (Date.now() < this.pausedUntil) return this.lookAgainIn(this.pausedUntil - Date.now());
    this.again = this.raced = false;
    this.draining = this.drain()
      .then(() => {
        // A drain that did not have to pause ends the waits in a row.
        if (Date.now() >= this.pausedUntil) this.pauseMs = this.pauses = 0;
      })
      .catch((error: unknown) => {
        // Nothing here may end the daemon: what failed stays queued, and the writer waits before it
        // tries again (the database itself failed), twice as long each time it fails again.
        this.pause();
        this.lastError = error instanceof Error ? error.message : String(error);
        this.options.logger.warn({ err: error, retryInMs: this.pauseMs }, "the vault writer stopped a batch; it is tried again later");
      })
      .finally(() => {
        this.writing.clear();
        this.draining = null;
        if (this.again) this.drainSoon();
        else this.scheduleWaiting();
      });
  }

  /**
   * What the drain left in the outbox is looked at again when it may be written: a failed
   * file's after its wait, the rest soon. New jobs need no timer: the change feed wakes the writer.
   */
  private scheduleWaiting(): void {
    if (this.stopped) return;
    const now = Date.now();
    if (now < this.pausedUntil) return this.lookAgainIn(this.pausedUntil - now);
    const pending = this.options.vault.pending();
    if (pending === 0) return;
    const nextRetryAt = this.retries.nextRetryAt();
    const allWaiting = nextRetryAt !== null && this.cursor === "" && !this.raced && pending <= this.retries.size;
    this.lookAgainIn(allWaiting ? Math.max(0, nextRetryAt - now) : AGAIN_MS);
  }

  private lookAgainIn(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.drainSoon();
    }, ms);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.step())) await nextTurn();
  }

  /**
   * Writes the jobs of the next page of the outbox that are not waiting after a failure; returns
   * true when it wrote some and more may follow (a page of only waiting jobs ends the drain, and
   * the next poll reads the page after it).
   */
  private async step(): Promise<boolean> {
    const page = this.options.vault.due(this.batch, this.cursor);
    this.cursor = page.length < this.batch ? "" : (page.at(-1) as VaultJob).memoryId;
    const now = Date.now();
    const ready = page.filter((job) => !this.retries.waiting(job, now));
    // A job that failed before is written alone: if it fails again (or stops the file thread), it fails by itself.
    for (const job of ready.filter((j) => this.retries.isRetry(j))) if (!(await this.write([job]))) return false;
    const fresh = ready.filter((j) => !this.retries.isRetry(j));
    if (fresh.length > 0 && !(await this.write(fresh))) return false;
    return ready.length > 0 && page.length === this.batch;
  }

  /**
   * Writes a set of jobs and records them in one transaction once their files landed (a commit
   * per file would cost each a flush of the database); only then are the files of moved and
   * purged memories removed, so that the watcher does not read a removal as a person's
   * deletion. Returns false when the database was locked by another process (the rest waits).
   */
  private async write(jobs: readonly VaultJob[]): Promise<boolean> {
    const { store, vault } = this.options;
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
      this.retries.done(job.memoryId);
      if (record) removals.push(record);
    }
    for (const { task } of writes) for (const touched of [task.record?.path, task.wanted, task.fallback]) if (touched) this.writing.add(touched);
    let outcomes: WriteOutcome[];
    try {
      outcomes = writes.length === 0 ? [] : await this.thread.write(writes.map((w) => w.task));
    } catch (error) {
      // The thread stopped on this set (a crash): each job fails, and is tried alone after its wait.
      for (const { job, task } of writes) this.fail(job, task.record?.path ?? task.wanted, error instanceof Error ? error.message : String(error));
      this.writing.clear();
      return true;
    }
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
          this.retries.done(task.memory.id);
          return;
        case "held":
          this.hold({ path: outcome.path, memoryId: task.memory.id, reason: "changed outside memd since memd wrote it, and not read back (see the unreadable files): left as it is, and memd's changes are not written over it" });
          this.retries.done(task.memory.id);
          settled.push({ job, file: record });
          return;
        case "raced":
          // Someone changed the file meanwhile. The job stays; the watcher reads their change.
          this.raced = true;
          return;
        case "failed":
          // The job stays queued and is tried again after its wait (a full disk, a folder made read-only, a link in the way).
          this.fail(job, task.record?.path ?? task.wanted, outcome.message);
      }
    });
    try {
      vault.settle(settled);
      for (const { file } of settled) if (file && this.unrecorded.get(file.path) === file.hash) this.unrecorded.delete(file.path);
    } catch (error) {
      if (!isDatabaseLocked(error)) throw error;
      // Another process holds the write lock (a backup, a sqlite3 shell): the files are written,
      // and a later drain finds them so and records them, after a wait that doubles while it lasts.
      const times = this.pause();
      this.lastError = `the database is locked by another process: the files written wait to be recorded (locked ${times} ${times === 1 ? "time" : "times"} in a row; tried again in ${Math.ceil(this.pauseMs / 1000)} s)`;
      return false;
    } finally {
      this.writing.clear();
    }
    this.thread.remove(removals);
    if (this.retries.size === 0) this.lastError = "";
    return true;
  }

  /** The writer as a whole waits before its next drain, twice as long as last time; returns how many waits in a row this makes. */
  private pause(): number {
    this.pauseMs = backoffMs(++this.pauses, FIRST_RETRY_MS, MAX_RETRY_MS);
    this.pausedUntil = Date.now() + this.pauseMs;
    return this.pauses;
  }

  /** A job whose file failed waits before it is tried again (see WriteRetries); the log hears of it at most once a minute. */
  private fail(job: VaultJob, file: string, message: string): void {
    const now = Date.now();
    const { attempts, waitMs } = this.retries.failed(job, file, message, now);
    this.lastError = `${job.memoryId}: ${message}`;
    const fields = { memoryId: job.memoryId, path: file, err: message, attempts, retryInMs: waitMs, failing: this.retries.size };
    if (now - this.lastWarnAt < WARN_EVERY_MS) return this.options.logger.debug(fields, "cannot write the memory's vault file; it is tried again later");
    this.lastWarnAt = now;
    this.options.logger.warn(fields, "cannot write the memory's vault file; it is tried again later, and memctl vault status lists the files that fail");
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
