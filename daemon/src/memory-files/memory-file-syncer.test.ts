import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FailedPreconditionError } from "../errors.js";
import { DEFAULT_HALF_LIVES } from "../lifecycle/half-lives.js";
import { buildMemory } from "../memory/new-memory.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { openStore } from "../store/open-store.js";
import { MemoryFileSyncer } from "./memory-file-syncer.js";
import { SECTION_BEGIN } from "./memory-section.js";

const now = () => Date.UTC(2026, 10, 29);
let dir: string;
let store: SqliteStore;
let syncer: MemoryFileSyncer;

function save(id: string, content: string, project = "acme-api"): void {
  store.insert(buildMemory({ content, project }, id, now(), { maxContentBytes: 65536 }));
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-files-"));
  store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now });
  syncer = new MemoryFileSyncer({ store, logger: pino({ level: "silent" }), now, halfLives: DEFAULT_HALF_LIVES });
});
afterEach(() => {
  syncer.stop();
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("per-project change counters", () => {
  it("rise with every write to a project's memories, for both projects when a memory moves", () => {
    save("01JAAAAAAAAAAAAAAAAAAAAAAA", "Auth is Clerk.");
    const first = store.projectVersions(["acme-api", "web"]);
    expect(first.get("web")).toBeUndefined();
    store.modify("01JAAAAAAAAAAAAAAAAAAAAAAA", (m) => ({ ...m, project: "web" }));
    const second = store.projectVersions(["acme-api", "web"]);
    expect(second.get("acme-api")).toBeGreaterThan(first.get("acme-api") as number);
    expect(second.get("web")).toBeGreaterThan(0);
  });
});

describe("MemoryFileSyncer", () => {
  it("writes the section at once when enabled and records the sync in the database", () => {
    save("01JAAAAAAAAAAAAAAAAAAAAAAA", "Auth is Clerk.");
    const file = path.join(dir, "MEMORY.md");
    syncer.enable("acme-api", file, false);
    expect(fs.readFileSync(file, "utf8")).toContain("`01JAAAAAAAAAAAAAAAAAAAAAAA` fact: Auth is Clerk.");
    expect(store.memoryFileSyncs.all()).toEqual([{ project: "acme-api", path: file, enabledAt: now(), createdFile: true }]);
  });

  it("rewrites the section once a burst of writes has settled, not on every write", () => {
    vi.useFakeTimers();
    try {
      const file = path.join(dir, "MEMORY.md");
      syncer.start();
      syncer.enable("acme-api", file, false);
      save("01JAAAAAAAAAAAAAAAAAAAAAAA", "Auth is Clerk.");
      vi.advanceTimersByTime(1000);
      save("01JBBBBBBBBBBBBBBBBBBBBBBB", "Deploys go through Argo CD.");
      vi.advanceTimersByTime(1000);
      expect(fs.readFileSync(file, "utf8")).toContain("No memories yet.");
      vi.advanceTimersByTime(1000);
      const text = fs.readFileSync(file, "utf8");
      expect(text).toContain("01JAAAAAAAAAAAAAAAAAAAAAAA");
      expect(text).toContain("01JBBBBBBBBBBBBBBBBBBBBBBB");
    } finally {
      vi.useRealTimers();
    }
  });

  it("moves the section when enabled again with another file", () => {
    const first = path.join(dir, "first.md");
    const second = path.join(dir, "second.md");
    fs.writeFileSync(first, "Mine.\n");
    syncer.enable("acme-api", first, false);
    const { previousPath } = syncer.enable("acme-api", second, false);
    expect(previousPath).toBe(first);
    expect(fs.readFileSync(first, "utf8")).toBe("Mine.\n");
    expect(fs.readFileSync(second, "utf8")).toContain(SECTION_BEGIN);
    expect(syncer.list().map((s) => s.path)).toEqual([second]);
  });

  it("refuses a file whose markers are broken and records nothing", () => {
    const file = path.join(dir, "MEMORY.md");
    fs.writeFileSync(file, `${SECTION_BEGIN}\nsomeone deleted the end marker\n`);
    expect(() => syncer.enable("acme-api", file, false)).toThrow(FailedPreconditionError);
    expect(fs.readFileSync(file, "utf8")).toBe(`${SECTION_BEGIN}\nsomeone deleted the end marker\n`);
    expect(store.memoryFileSyncs.all()).toEqual([]);
  });

  it("creates Claude Code's memory directory for the default file", () => {
    const file = path.join(dir, "claude", "projects", "-r", "memory", "MEMORY.md");
    syncer.enable("acme-api", file, true);
    expect(fs.readFileSync(file, "utf8")).toContain("No memories yet.");
  });
});
