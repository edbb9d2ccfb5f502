import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { DAEMON_BIN, makeHome, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const homes: string[] = [];
const daemons: TestDaemon[] = [];

function home(): string {
  const dir = makeHome();
  homes.push(dir);
  return dir;
}

afterEach(async () => {
  for (const d of daemons.splice(0)) if (d.process.exitCode === null) await d.kill();
  for (const dir of homes.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the memd daemon process", () => {
  it("keeps its state private: directory 0700, socket and database 0600", async () => {
    const dir = home();
    fs.chmodSync(dir, 0o755);
    const d = await spawnDaemon({ home: dir });
    daemons.push(d);
    await d.clients.memory.save({ content: "private", project: "p" });
    const mode = (file: string) => fs.statSync(path.join(dir, file)).mode & 0o777;
    expect(mode(".")).toBe(0o700);
    expect(mode("memd.sock")).toBe(0o600);
    expect(mode("memd.db")).toBe(0o600);
    expect(mode("logs/memd.log")).toBe(0o600);
  });

  it("refuses a second daemon on the same home, saying one is running", async () => {
    const dir = home();
    const first = await spawnDaemon({ home: dir });
    daemons.push(first);
    const second = spawnSync(process.execPath, [DAEMON_BIN], { env: { ...process.env, MEMD_HOME: dir }, encoding: "utf8" });
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`memd is already running .*pid ${first.process.pid}`));
    const health = await first.clients.admin.health({});
    expect(health.health?.pid).toBe(first.process.pid);
  });

  it("stops cleanly on SIGTERM: answers what it accepted, then removes its socket and pid file", async () => {
    const dir = home();
    const d = await spawnDaemon({ home: dir });
    const pending = Array.from({ length: 40 }, (_, i) => d.clients.memory.save({ content: `drain ${i}`, project: "drain" }).then(
      (res) => res.memory?.id ?? "",
      () => "",
    ));
    // Stopped once the first is answered, while the rest are on their way or in flight.
    await Promise.race(pending);
    const code = await d.stop();
    const acknowledged = (await Promise.all(pending)).filter((id) => id !== "");
    expect(code).toBe(0);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(dir, "memd.sock"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "memd.pid"))).toBe(false);
    const db = new Database(path.join(dir, "memd.db"), { readonly: true });
    const stored = new Set((db.prepare("SELECT id FROM memories").all() as { id: string }[]).map((r) => r.id));
    db.close();
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    expect(fs.readFileSync(path.join(dir, "logs/memd.log"), "utf8")).toMatch(/memd stopping/);
  });

  it("refuses to open a database written by a newer memd, and leaves it untouched", () => {
    const dir = home();
    const file = path.join(dir, "memd.db");
    const db = new Database(file);
    db.exec("CREATE TABLE memories (x)");
    db.pragma("user_version = 99");
    db.close();
    const before = fs.readFileSync(file);
    const result = spawnSync(process.execPath, [DAEMON_BIN], { env: { ...process.env, MEMD_HOME: dir }, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/schema version 99.*upgrade memd/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it("documents every setting in --help", () => {
    const result = spawnSync(process.execPath, [DAEMON_BIN, "--help"], { encoding: "utf8" });
    expect(result.status).toBe(0);
    for (const word of ["--home", "--listen", "--log-level", "--max-content-bytes", "MEMD_HOME", "synchronous=FULL", "SIGTERM"]) {
      expect(result.stdout).toContain(word);
    }
  });
});
