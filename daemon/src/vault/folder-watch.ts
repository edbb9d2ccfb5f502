import fs from "node:fs";
import path from "node:path";

/**
 * Watches a folder tree with one fs.watch per folder (inotify on Linux, kqueue or FSEvents
 * elsewhere), each folder watched before it is read, so that nothing made in it meanwhile goes
 * unseen. Two libraries were measured here first and left: chokidar rescans a folder on every
 * file renamed into it (each Save took ten times as long while a vault of 10k files filled),
 * and @parcel/watcher missed the inner folder of two made at once (8 times in 20), and every
 * file in it after that.
 *
 * No link is followed: a symbolic link is reported as one, never watched into (fs.watch and
 * stat would follow it to wherever it points).
 */
export class FolderWatch {
  private readonly watchers = new Map<string, fs.FSWatcher>();

  constructor(
    private readonly root: string,
    private readonly handlers: {
      /** A file was made, changed or removed (or a file in a folder that appeared); called for each. */
      file(file: string): void;
      /** A folder appeared (made, moved in, or put where a link was); its files are reported too. */
      folderMade(dir: string): void;
      /** A watched folder is gone, with whatever it held. */
      folderGone(dir: string): void;
      /** A symbolic link appeared (or changed) in a watched folder: it is not followed. */
      link(link: string): void;
      /** Names to ignore (dot-folders, temporary files). */
      skip(name: string): boolean;
    },
  ) {}

  /** Watches the tree as it is now; the files already there are not reported. */
  start(): void {
    this.add(this.root, false);
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private add(dir: string, report: boolean): void {
    if (this.watchers.has(dir)) return;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, (_event, name) => {
        if (typeof name === "string") this.changed(dir, name);
      });
    } catch {
      return; // Gone already, or not a folder: its parent's event says so.
    }
    watcher.on("error", () => this.remove(dir));
    this.watchers.set(dir, watcher);
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (this.handlers.skip(entry.name)) continue;
      const inner = path.join(dir, entry.name);
      if (entry.isDirectory()) this.add(inner, report);
      else if (report && entry.isFile()) this.handlers.file(inner);
      else if (report && entry.isSymbolicLink()) this.handlers.link(inner);
    }
  }

  private changed(dir: string, name: string): void {
    if (this.handlers.skip(name)) return;
    const target = path.join(dir, name);
    let stats: fs.Stats | null = null;
    try {
      stats = fs.lstatSync(target);
    } catch {
      stats = null;
    }
    if (stats?.isSymbolicLink()) {
      // A watched folder replaced by a link: the folder memd watched is no longer there to watch.
      this.remove(target);
      return this.handlers.link(target);
    }
    if (stats?.isDirectory()) {
      this.add(target, true);
      return this.handlers.folderMade(target);
    }
    if (stats === null && this.watchers.has(target)) {
      this.remove(target);
      return this.handlers.folderGone(target);
    }
    this.handlers.file(target);
  }

  /** Stops watching a folder and every folder under it. */
  private remove(dir: string): void {
    for (const [watched, watcher] of this.watchers) {
      if (watched === dir || watched.startsWith(`${dir}${path.sep}`)) {
        watcher.close();
        this.watchers.delete(watched);
      }
    }
  }
}
