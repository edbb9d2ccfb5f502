import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../store/open-store.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { ContradictionWatch } from "./contradiction-watch.js";

const NOW = Date.UTC(2026, 11, 3);
let dir = "";
let store: SqliteStore | undefined;

afterEach(() => {
  store?.close();
  store = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the check of imported memories", () => {
  it("counts the imported memories it has yet to check (what Health reports), down to 0 once it is done", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-watch-"));
    store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now: () => NOW });
    const watch = new ContradictionWatch({ store, judge: null, logger: pino({ level: "silent" }), now: () => NOW });
    expect(watch.importsPending).toBe(0);
    const ids = Array.from({ length: 45 }, (_, i) => `01JAAAAAAAAAAAAAAAAAAAA${String(i).padStart(3, "0")}`);
    watch.checkImported(ids);
    expect(watch.importsPending).toBe(45);
    await watch.idle();
    expect(watch.importsPending).toBe(0);
    await watch.close();
  });
});
