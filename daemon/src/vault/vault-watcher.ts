import fs from "node:fs";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Logger } from "../logger.js";
import type { MemoryRecord } from "../memory/memory.js";
import type { MemoryLimits } from "../memory/validate.js";
import { isDatabaseLocked } from "../store/database-locked.js";
import type { MemoryRecords } from "../store/store.js";
import type { VaultStore } from "../store/vault-store.js";
import { fileEdit } from "./file-edit.js";
import { isKindFolderName, isMemoryFilePath } from "./file-name.js";
import { FolderWatch } from "./folder-watch.js";
import { parseMemoryFile, textHash } from "./memory-file.js";
import type { VaultProblem } from "./rebuild-from-vault.js";
import { maxVaultFileBytes, VaultFiles } from "./vault-files.js";
import { UnreadableFiles } from "./unreadable-files.js";
import { applyFileEdit, archiveForDeletedFile, createFromFile, type VaultEditTarget } from "./vault-edits.js";
import { isLinkPlace, LinksLeftAlone } from "./vault-links.js";

export interface VaultWatcherOptions {
  dir: string;
  store: MemoryRecords;
  vault: VaultStore;
  logger: Logger;
  now: () => number;
  newId: () => string;
  limits: MemoryLimits;
  /** Checks what a person wrote for contradictions with the active memories. */
  contradictions: VaultEditTarget["contradictions"];
  /** How long a file must stay unchanged before it is read: an editor's save may take several writes. */
  settleMs?: number;
  /** True for a text memd itself just wrote at a path and has not recorded yet (VaultWriter.wrote). */
  ownWrite?: (relative: string, hash: string) => boolean;
  /** True while memd itself may be writing a path (VaultWriter.busy): it is read once that is over. */
  busy?: (relative: string) => boolean;
}

const DEFAULT_SETTLE_MS = 75;
/** How soon a file is read again when another process held the database's write lock. */
const LOCKED_RETRY_MS = 500;

/** Files read per turn of the event loop by the start-up pass. */
const SCAN_STEP = 200;

/**
 * Reads a person's edits of the vault back into memd. A FolderWatch reports the changes, and a
 * pass over every file at start-up reads what changed while memd was not running:
 * - an edited file updates its memory through the same validation and redaction as Update,
 *   recorded in the history with provenance human and the version it replaced, so both stay;
 *   the file is then rewritten as memd stores it (a secret typed in is redacted there too);
 * - a new file without an id becomes a new memory, its project and kind from its folder
 *   (`<project>/<kind>/name.md`) unless its frontmatter says otherwise; files anywhere else in
 *   the vault (a person's own notes) are not memd's and are never read or rewritten;
 * - a deleted file archives its memory, never deletes it (the file comes back, archived);
 * - a file memd cannot parse (also one whose YAML aliases expand too far, or one too large) is
 *   left exactly as written and reported with its line, once in the log and in `memctl vault
 *   status`, and nothing of it is applied;
 * - a symbolic link at one of memd's places (a memory's file, a kind's folder, the folder of a
 *   project memd keeps files in) is never followed: nothing is read through it and nothing
 *   written, its memory (if any) stays as stored, and `memctl vault status` lists it.
 * A change memd made that the file did not have yet loses to the person's edit, which is the
 * later act; the history keeps the version it replaced. memd's own writes are recognised by
 * the hash recorded with them and read nothing back.
 */
export class VaultWatcher {
  private watch: FolderWatch | null = null;
  private stopped = false;
  private readonly problems: UnreadableFiles;
  /** Files whose events are settling: read once no further event came for settleMs. */
  private readonly settling = new Map<string, NodeJS.Timeout>();
  private readonly links: LinksLeftAlone;
  private readonly files: VaultFiles;

  constructor(private readonly options: VaultWatcherOptions) {
    this.files = new VaultFiles(options.dir, maxVaultFileBytes(options.limits.maxContentBytes));
    this.links = new LinksLeftAlone(options.logger, (relative) => this.files.linkTarget(relative));
    this.problems = new UnreadableFiles(options.logger);
  }

  /** Watches from now on, then reads every file once; resolves when that pass is done. */
  async start(): Promise<void> {
    const { dir } = this.options;
    fs.mkdirSync(dir, { recursive: true });
    this.watch = new FolderWatch(dir, {
      file: (file) => {
        const relative = this.relative(file);
        if (isMemoryFilePath(relative)) this.settle(file);
        else this.links.lookUnder(relative);
      },
      folderMade: (folder) => this.links.lookUnder(this.relative(folder)),
      folderGone: (folder) => this.folderGone(folder),
      link: (link) => this.linkEvent(this.relative(link)),
      // Dot-folders (.git, .obsidian) and dot-files (memd's temporary files) are not memories.
      skip: (name) => name.startsWith("."),
    });
    this.watch.start();
    let read = 0;
    const projects = new Set(this.options.vault.files().map((record) => record.path.split("/")[0]));
    for (const entry of this.files.entries(isKindFolderName, (name) => projects.has(name))) {
      if (this.stopped) return;
      if (entry.kind === "link") this.linkFound(entry.path, entry.target);
      else if (entry.kind === "file") this.look(path.join(dir, entry.path));
      if (++read % SCAN_STEP === 0) await nextTurn();
    }
    this.guard(dir, () => this.sweepMissing());
    this.options.logger.info({ vault: dir, files: read, unreadable: this.problems.size, links: this.links.size }, "watching the vault for edits");
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.settling.values()) clearTimeout(timer);
    this.settling.clear();
    this.watch?.close();
    this.watch = null;
  }

  /** A folder deleted as a whole: each file memd knows under it was deleted. */
  private folderGone(folder: string): void {
    const relative = this.relative(folder);
    this.links.lookUnder(relative);
    for (const record of this.options.vault.files()) if (record.path.startsWith(`${relative}/`)) this.settle(path.join(this.options.dir, record.path));
  }

  /**
   * Reads a file once its events have stopped for a moment: an editor's save may write it in
   * several steps, or replace it (a delete, then a new file). A file gone by then was deleted.
   */
  private settle(file: string, afterMs = this.options.settleMs ?? DEFAULT_SETTLE_MS): void {
    if (this.stopped) return;
    clearTimeout(this.settling.get(file));
    const timer = setTimeout(() => {
      this.settling.delete(file);
      this.look(file);
    }, afterMs);
    timer.unref();
    this.settling.set(file, timer);
  }

  /** Reads a file now, or, while memd's own write of it is under way, once that is recorded. */
  private look(file: string): void {
    if (this.options.busy?.(this.relative(file)) === true) return this.settle(file);
    this.guard(file, () => {
      const relative = this.relative(file);
      const found = this.files.read(relative);
      if (found.kind === "link") return this.linkFound(found.link, found.target);
      this.links.gone(relative);
      if (found.kind === "missing") return this.removed(file);
      if (found.kind === "refused") return this.problems.report(relative, 0, found.reason, "");
      this.changed(file, found.text);
    });
  }

  /** A link appeared or changed at `relative`: listed if it is at one of memd's places. */
  private linkEvent(relative: string): void {
    const keepsFilesUnder = (project: string) => this.options.vault.files().some((record) => record.path.startsWith(`${project}/`));
    if (isLinkPlace(relative, keepsFilesUnder) && this.links.look(relative)) this.problems.clear(relative);
  }

  /** A link at one of memd's places: nothing of it is read, and the status lists it. */
  private linkFound(relative: string, target: string): void {
    this.links.found(relative, target);
    this.problems.clear(relative);
  }

  /** The symbolic links at memd's places in the vault, none of them followed. */
  linksLeftAlone(): VaultProblem[] {
    return this.links.list();
  }

  /** A line for an agent's briefing naming the unreadable files no briefing named yet, or null. */
  takeNotice(): string | null {
    return this.problems.takeNotice();
  }

  /** Files memd could not read as memories, left as they are. */
  unreadable(): VaultProblem[] {
    return this.problems.list();
  }

  /**
   * A failure in one file's handling is that file's problem, never the watcher's end; while
   * another process holds the database's write lock, the file is read again a moment later.
   */
  private guard(file: string, work: () => void): void {
    try {
      work();
    } catch (error) {
      if (isDatabaseLocked(error)) return this.settle(file, LOCKED_RETRY_MS);
      const relative = this.relative(file);
      this.problems.report(relative, 1, error instanceof Error ? error.message : String(error), "");
    }
  }

  private relative(file: string): string {
    return path.relative(this.options.dir, file).split(path.sep).join("/");
  }

  private changed(file: string, text: string): void {
    const { store, vault } = this.options;
    const relative = this.relative(file);
    const hash = textHash(text);
    const record = vault.fileAt(relative);
    if (record?.hash === hash || this.options.ownWrite?.(relative, hash) === true) {
      this.problems.clear(relative);
      return;
    }
    const parsed = parseMemoryFile(text);
    if (!parsed.ok) return this.problems.report(relative, parsed.line, parsed.reason, hash);
    const id = parsed.memory.id;
    if (id === undefined || id === "") return this.created(relative, hash, parsed.memory);
    const owner = vault.fileOf(id);
    if (owner && owner.path !== relative) {
      return this.problems.report(relative, 1, `holds the id of ${owner.path} (a copy?): remove its id line to make it a memory of its own`, hash);
    }
    const current = store.get(id);
    if (!current) return this.problems.report(relative, 1, `names memory ${id}, which memd does not hold: run memctl vault rebuild to restore it from its file`, hash);
    const edit = fileEdit(current, parsed.memory);
    if (edit.kind === "refused") return this.problems.report(relative, 1, edit.reason, hash);
    if (edit.kind === "update") applyFileEdit(this.options, current, edit, relative, this.options.now());
    // Recorded as read, then queued: the file is rewritten as memd now stores the memory.
    vault.putFiles([{ memoryId: id, path: relative, hash }]);
    vault.queue(id);
    this.problems.clear(relative);
  }

  private created(relative: string, hash: string, fields: Partial<MemoryRecord>): void {
    const memory = createFromFile(this.options, relative, fields, this.options.newId(), this.options.now());
    // The file is memd's from now on: it is rewritten in place, with the new memory's id.
    this.options.vault.putFiles([{ memoryId: memory.id, path: relative, hash }]);
    this.problems.clear(relative);
  }

  private removed(file: string): void {
    const { store, vault, now } = this.options;
    const relative = this.relative(file);
    this.problems.clear(relative);
    const record = vault.fileAt(relative);
    // memd moving or purging a file forgets its record first: only someone else's deletion is left.
    if (!record) return;
    const memory = store.get(record.memoryId);
    if (!memory) return vault.forgetFile(record.memoryId);
    if (memory.status === "archived") return;
    archiveForDeletedFile(this.options, memory, relative, now());
  }

  /** Files deleted while memd was not running: their memories are archived as if they had been deleted now. */
  private sweepMissing(): void {
    for (const record of this.options.vault.files()) {
      const file = path.join(this.options.dir, record.path);
      this.guard(file, () => {
        const found = this.files.read(record.path);
        if (found.kind === "missing") this.removed(file);
        else if (found.kind === "link") this.linkFound(found.link, found.target);
      });
    }
  }
}
