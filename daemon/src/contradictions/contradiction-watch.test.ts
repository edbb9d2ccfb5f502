import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildMemory } from "../memory/new-memory.js";
import { openStore } from "../store/open-store.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { ContradictionWatch } from "./contradiction-watch.js";

const NOW = Date.UTC(2026, 11, 3);
const LIMITS = { maxContentBytes: 65_536 };
let dir: string;
let store: SqliteStore;
let watch: ContradictionWatch | undefined;
let ids = 0;

const open = () => openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now: () => NOW });

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-contradiction-watch-"));
  store = open();
});

afterEach(async () => {
  await watch?.close();
  watch = undefined;
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function memory(content: string, project = "acme") {
  ids += 1;
  return buildMemory({ content, project }, `01JAAAAAAAAAAAAAAAAAAAA${String(ids).padStart(3, "0")}`, NOW + ids, LIMITS);
}

function startWatch(): ContradictionWatch {
  watch = new ContradictionWatch({ store, judge: null, logger: pino({ level: "silent" }), now: () => NOW });
  return watch;
}

describe("the contradiction watch's index of claims (a real SQLite store)", () => {
  it("files every active memory stored before it started, and judges a new memory against them", async () => {
    const clerk = memory("Auth is Clerk, not custom JWT.");
    store.insert(clerk);
    for (let i = 0; i < 50; i += 1) store.insert(memory(`Service ${i} writes its logs to /var/log/service-${i}.log.`));
    // As memd restarts: what was stored is on disk only, never announced to the new watch.
    store.close();
    store = open();
    const contradictions = startWatch();
    await contradictions.idle();
    const found = contradictions.detect(memory("Auth moved to Auth0 last sprint."));
    expect(found.likely.map((f) => f.other.id)).toEqual([clerk.id]);
  });

  it("judges a memory by what it says after an edit, and no longer once it is archived", async () => {
    const contradictions = startWatch();
    const stored = memory("Errors go to Sentry.");
    store.insert(stored);
    store.modify(stored.id, (m) => ({ ...m, content: "Auth is Clerk.", updatedAt: NOW + 1000 }));
    await contradictions.idle();
    expect(contradictions.detect(memory("Errors go to Rollbar now.")).likely).toEqual([]);
    expect(contradictions.detect(memory("Auth moved to Auth0.")).likely.map((f) => f.other.id)).toEqual([stored.id]);
    store.modify(stored.id, (m) => ({ ...m, status: "archived", updatedAt: NOW + 2000 }));
    await contradictions.idle();
    expect(contradictions.detect(memory("Auth moved to Okta.")).likely).toEqual([]);
  });

  it("judges the next write against a memory Save just recorded, before the change feed is read", () => {
    const contradictions = startWatch();
    const first = memory("The db port is 5432.");
    store.insert(first);
    contradictions.record(first, { likely: [], possible: [] }, "save");
    expect(contradictions.detect(memory("The db port is 5433 now.")).likely.map((f) => f.other.id)).toEqual([first.id]);
  });

  it("checks imported memories against each other, and files each one it checks for the writes after", async () => {
    const contradictions = startWatch();
    const clerk = memory("Auth is Clerk, not custom JWT.");
    const auth0 = memory("Auth moved to Auth0 last sprint.");
    const archived = { ...memory("Auth is Okta."), status: "archived" as const };
    store.importMany([clerk, auth0, archived]);
    contradictions.checkImported([clerk.id, auth0.id, archived.id]);
    await contradictions.idle();
    const recorded = store.contradictions.list({ settled: false, limit: 10 });
    expect(recorded.map((c) => [c.memoryId, c.otherId].sort())).toEqual([[clerk.id, auth0.id].sort()]);
    const later = contradictions.detect(memory("Auth is Keycloak now."));
    expect(later.likely.map((f) => f.other.id).sort()).toEqual([clerk.id, auth0.id].sort());
  });
});

describe("the check of imported memories", () => {
  it("counts the imported memories it has yet to check (what Health reports), down to 0 once it is done", async () => {
    const checked = startWatch();
    expect(checked.importsPending).toBe(0);
    const imported = Array.from({ length: 45 }, (_, i) => memory(`Service ${i} listens on port ${5000 + i}.`));
    for (const m of imported) store.insert(m);
    checked.checkImported(imported.map((m) => m.id));
    expect(checked.importsPending).toBe(45);
    await checked.idle();
    expect(checked.importsPending).toBe(0);
  });
});

describe("the order of a pair", () => {
  it("records the newer memory first when an import brings in an older one that contradicts it", async () => {
    const contradictions = startWatch();
    const auth0 = memory("Auth moved to Auth0 last sprint.");
    store.insert(auth0);
    await contradictions.idle();
    // Made a year before the stored memory, as an export from another machine can be.
    const clerk = { ...memory("Auth is Clerk, not custom JWT."), createdAt: NOW - 365 * 86_400_000, updatedAt: NOW - 365 * 86_400_000 };
    store.importMany([clerk]);
    contradictions.checkImported([clerk.id]);
    await contradictions.idle();
    const [recorded] = store.contradictions.list({ settled: false, limit: 10 });
    expect(recorded).toMatchObject({ memoryId: auth0.id, otherId: clerk.id, via: "import" });
    expect(recorded?.newerSays).toMatch(/auth0/i);
    expect(recorded?.olderSays).toMatch(/clerk/i);
  });
});
