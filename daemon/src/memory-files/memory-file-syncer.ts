import fs from "node:fs";
import path from "node:path";
import { ConflictError, FailedPreconditionError, NotFoundError } from "../errors.js";
import type { HalfLives } from "../lifecycle/half-lives.js";
import type { Logger } from "../logger.js";
import type { MemoryRecord } from "../memory/memory.js";
import type { MemoryFileSyncRecord, MemoryStore } from "../store/store.js";
import { readTextIfExists, writeFileAtomic } from "./markdown-files.js";
import { renderSection, replaceSection } from "./memory-section.js";
import { topMemories } from "./top-memories.js";

export interface MemoryFileSyncerOptions {
  store: MemoryStore;
  logger: Logger;
  now: () => number;
  halfLives: HalfLives;
  /** How often the per-project change counters are read; writes in between coalesce into one rewrite. */
  pollMs?: number;
  /** Decay reorders memories with no write at all, so every section is recomputed at least this often. */
  refreshMs?: number;
}

/** A sync as reported: the record plus what this daemon saw since it started. */
export interface MemoryFileSyncState extends MemoryFileSyncRecord {
  lastWriteAt: number | null;
  lastError: string;
}

const DEFAULT_POLL_MS = 1000;
const DEFAULT_REFRESH_MS = 60 * 60_000;
/** A project written to without pause still gets its section this often. */
const MAX_PENDING_MS = 10_000;
const LIST_PAGE = 1000;

/**
 * Keeps each synced project's MEMORY.md section current. It never writes in a request's path
 * for a save: it polls one counter per synced project (raised in the same transaction by every
 * write to a memory of that project, see migration 7, so saves, updates, archives, supersedes,
 * imports and maintenance all count) and recomputes a section when its counter moved and
 * settled, or an hour passed; it rewrites the file only when the text would change.
 */
export class MemoryFileSyncer {
  private readonly syncs = new Map<string, MemoryFileSyncRecord>();
  /** The counter each section was last computed at, and when. */
  private readonly seen = new Map<string, { version: number; at: number }>();
  /** Counters that moved since, with when they first did. */
  private readonly pending = new Map<string, { version: number; since: number }>();
  private readonly status = new Map<string, { lastWriteAt: number | null; lastError: string }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: MemoryFileSyncerOptions) {}

  start(): void {
    for (const sync of this.options.store.memoryFileSyncs.all()) this.syncs.set(sync.project, sync);
    this.tick();
    this.timer = setInterval(() => this.tick(), this.options.pollMs ?? DEFAULT_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  list(): MemoryFileSyncState[] {
    return [...this.syncs.values()]
      .sort((a, b) => (a.project < b.project ? -1 : 1))
      .map((sync) => ({ ...sync, ...(this.status.get(sync.project) ?? { lastWriteAt: null, lastError: "" }) }));
  }

  /**
   * Turns sync on (or moves it to another file) and writes the section now. A file whose
   * markers are broken, or that cannot be written, fails the call and nothing is recorded.
   */
  enable(project: string, file: string, createDirectory: boolean): { sync: MemoryFileSyncState; previousPath: string } {
    const holder = [...this.syncs.values()].find((s) => s.path === file && s.project !== project);
    if (holder) throw new ConflictError(`${file} already holds the section of project "${holder.project}": disable that first (memctl memory-file disable -p ${holder.project})`);
    const previous = this.syncs.get(project);
    try {
      if (createDirectory) fs.mkdirSync(path.dirname(file), { recursive: true });
    } catch (error) {
      throw new FailedPreconditionError(`cannot create the folder of ${file}: ${messageOf(error)}`, { cause: error });
    }
    const existed = fs.existsSync(file);
    const sync: MemoryFileSyncRecord = {
      project,
      path: file,
      enabledAt: previous?.enabledAt ?? this.options.now(),
      createdFile: previous?.path === file ? previous.createdFile : !existed,
    };
    const version = this.options.store.projectVersions([project]).get(project) ?? 0;
    try {
      this.write(sync);
    } catch (error) {
      throw new FailedPreconditionError(`cannot write the memd section into ${file}: ${messageOf(error)}`, { cause: error });
    }
    this.options.store.memoryFileSyncs.put(sync);
    this.syncs.set(project, sync);
    this.seen.set(project, { version, at: this.options.now() });
    let previousPath = "";
    if (previous && previous.path !== file) {
      previousPath = previous.path;
      this.removeSection(previous);
    }
    return { sync: this.stateOf(sync), previousPath };
  }

  /** Turns sync off and takes the section out of the file; the rest of the file stays as it was. */
  disable(project: string): { sync: MemoryFileSyncState; sectionRemoved: boolean } {
    const sync = this.syncs.get(project);
    if (!sync) throw new NotFoundError(`MEMORY.md sync is not enabled for project "${project}" (memctl memory-file list shows the synced projects)`);
    const state = this.stateOf(sync);
    this.options.store.memoryFileSyncs.delete(project);
    this.syncs.delete(project);
    this.seen.delete(project);
    this.pending.delete(project);
    this.status.delete(project);
    return { sync: state, sectionRemoved: this.removeSection(sync) };
  }

  /**
   * Recomputes the sections whose project changed, once its counter has held still for one poll
   * (a burst of saves or an import costs one recomputation, not one per write) or has kept
   * moving for MAX_PENDING_MS; and every section once refreshMs has passed.
   */
  private tick(): void {
    if (this.syncs.size === 0) return;
    const at = this.options.now();
    const versions = this.options.store.projectVersions([...this.syncs.keys()]);
    for (const sync of this.syncs.values()) {
      const version = versions.get(sync.project) ?? 0;
      const seen = this.seen.get(sync.project);
      const pending = this.pending.get(sync.project);
      if (seen && seen.version === version) {
        this.pending.delete(sync.project);
        if (at - seen.at < (this.options.refreshMs ?? DEFAULT_REFRESH_MS)) continue;
      } else if (seen && pending?.version !== version && at - (pending?.since ?? at) < MAX_PENDING_MS) {
        this.pending.set(sync.project, { version, since: pending?.since ?? at });
        continue;
      }
      this.pending.delete(sync.project);
      try {
        this.write(sync);
        this.seen.set(sync.project, { version, at });
      } catch (error) {
        const lastError = messageOf(error);
        // Logged once per distinct failure, not once a second.
        if (this.status.get(sync.project)?.lastError !== lastError) {
          this.options.logger.warn({ err: error, project: sync.project, path: sync.path }, "could not update a MEMORY.md section");
        }
        this.status.set(sync.project, { lastWriteAt: this.status.get(sync.project)?.lastWriteAt ?? null, lastError });
        this.seen.set(sync.project, { version, at });
      }
    }
  }

  /** Renders the project's section into its file; writes only when the text changes. */
  private write(sync: MemoryFileSyncRecord): void {
    const { store, now, halfLives } = this.options;
    if (!fs.existsSync(path.dirname(sync.path))) throw new Error(`its directory ${path.dirname(sync.path)} no longer exists`);
    const top = topMemories(this.activeMemories(sync.project), store.lastReinforcements(), now(), halfLives);
    const current = readTextIfExists(sync.path) ?? "";
    const next = replaceSection(current, renderSection(sync.project, top));
    let lastWriteAt = this.status.get(sync.project)?.lastWriteAt ?? null;
    if (next !== current) {
      writeFileAtomic(sync.path, next);
      lastWriteAt = now();
    }
    this.status.set(sync.project, { lastWriteAt, lastError: "" });
  }

  /** Removes the section; a file memd created and that holds nothing else goes too. */
  private removeSection(sync: MemoryFileSyncRecord): boolean {
    try {
      const current = readTextIfExists(sync.path);
      if (current === null) return false;
      const next = replaceSection(current, null);
      if (next === current) return false;
      if (next === "" && sync.createdFile) fs.rmSync(sync.path, { force: true });
      else writeFileAtomic(sync.path, next);
      return true;
    } catch (error) {
      this.options.logger.warn({ err: error, project: sync.project, path: sync.path }, "could not remove a MEMORY.md section");
      return false;
    }
  }

  private activeMemories(project: string): MemoryRecord[] {
    const all: MemoryRecord[] = [];
    for (let afterId: string | undefined; ; ) {
      const page = this.options.store.list({ projects: [project], kinds: [], statuses: ["active"] }, { limit: LIST_PAGE, afterId });
      all.push(...page);
      if (page.length < LIST_PAGE) return all;
      afterId = page.at(-1)?.id;
    }
  }

  private stateOf(sync: MemoryFileSyncRecord): MemoryFileSyncState {
    return { ...sync, ...(this.status.get(sync.project) ?? { lastWriteAt: null, lastError: "" }) };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
