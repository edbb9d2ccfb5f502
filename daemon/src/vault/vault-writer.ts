import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../logger.js";
import type { MemoryRecord } from "../memory/memory.js";
import { readTextIfExists, writeFileAtomic } from "../memory-files/markdown-files.js";
import type { MemoryStore } from "../store/store.js";
import type { VaultJob, VaultStore } from "../store/vault-store.js";
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

const DEFAULT_BATCH = 50;
const DEFAULT_POLL_MS = 50;
const MAX_HELD = 1000;

/** The hash recorded for a file's text, to tell memd's own writes from edits made since. */
export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Writes each queued memory's Markdown file, off the request path: the database queues a
 * memory in the same transaction as its change (see migration 11), and this drains the queue
 * a batch per turn of the event loop. Each file is written atomically (a temporary file, then
 * a rename), and only when its text changed. A file someone changed since memd last wrote it
 * is left as they wrote it and reported (held), never overwritten; a memory that moved to
 * another project or kind moves its file, keeping its name.
 */
export class VaultWriter {
  private timer: NodeJS.Timeout | null = null;
  private draining: NodeJS.Immediate | null = null;
  private lastWriteAt: number | null = null;
  private lastError = "";
  private readonly held = new Map<string, HeldFile>();
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

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.draining) clearImmediate(this.draining);
    this.timer = null;
    this.draining = null;
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

  /** Writes everything queued now, in one go: for tests and for shutdown. */
  flush(): void {
    while (this.step() === this.batch);
  }

  private drainSoon(): void {
    if (this.draining) return;
    this.draining = setImmediate(() => {
      this.draining = null;
      if (this.step() === this.batch) this.drainSoon();
    });
  }

  /** Writes one batch; returns how many jobs it took. */
  private step(): number {
    const jobs = this.options.vault.due(this.batch);
    for (const job of jobs) {
      try {
        this.write(job);
        this.lastError = "";
      } catch (error) {
        // The job stays queued and is tried again on the next poll (a full disk, a folder made read-only).
        this.lastError = `${job.memoryId}: ${error instanceof Error ? error.message : String(error)}`;
        this.options.logger.warn({ memoryId: job.memoryId, err: error }, "cannot write the memory's vault file; it is tried again");
        return 0;
      }
    }
    return jobs.length;
  }

  private write(job: VaultJob): void {
    const { store, vault, dir } = this.options;
    const memory = store.get(job.memoryId);
    const record = vault.fileOf(job.memoryId);
    if (!memory) {
      // Purged: its file goes too, unless someone changed it since memd wrote it.
      if (record && this.unchangedSinceWritten(record.path, record.hash)) fs.rmSync(path.join(dir, record.path), { force: true });
      vault.forgetFile(job.memoryId);
      vault.done(job);
      return;
    }
    if (record && !this.unchangedSinceWritten(record.path, record.hash)) {
      this.hold({ path: record.path, memoryId: memory.id, reason: "changed outside memd since memd wrote it: left as it is, and memd's changes to this memory are not written over it" });
      vault.done(job);
      return;
    }
    const target = this.targetPath(memory, record?.path);
    const text = renderMemoryFile(memory, store.events([memory.id]), { supersedes: this.stemOf(memory.supersedes), supersededBy: this.stemOf(memory.supersededBy) });
    const hash = textHash(text);
    const file = path.join(dir, target);
    const current = readTextIfExists(file);
    if (current === null || textHash(current) !== hash) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      writeFileAtomic(file, text);
      this.lastWriteAt = Date.now();
    }
    if (record && record.path !== target) fs.rmSync(path.join(dir, record.path), { force: true });
    vault.putFile({ memoryId: memory.id, path: target, hash });
    this.held.delete(memory.id);
    vault.done(job);
  }

  /**
   * Where a memory's file goes: its folder (project and kind) as it is now, under the name it
   * was first given, so that an edit of the content does not rename the file. A name another
   * memory's file (or a file of someone's own) already has takes the whole id instead.
   */
  private targetPath(memory: MemoryRecord, previous: string | undefined): string {
    const wanted = previous === undefined ? vaultPath(memory) : path.posix.join(vaultFolder(memory), path.posix.basename(previous));
    if (this.freeFor(wanted, memory.id)) return wanted;
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
