import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeHome, removeDaemon, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

let daemon: TestDaemon;

beforeAll(async () => {
  daemon = await spawnDaemon();
});
afterAll(() => removeDaemon(daemon));

const cli = (...args: string[]) => runCli(daemon.home, args);

describe("memctl against a running daemon", () => {
  it("adds a memory with structured fields and finds it by an identifier", async () => {
    const added = await cli("--json", "add", "PAY-1423: webhook retries double-charged customers", "--kind", "episode", "-p", "payments", "-c", "stripe,webhooks", "-f", "src/webhooks/worker.ts", "--importance", "4");
    expect(added.code).toBe(0);
    const memory = JSON.parse(added.stdout) as { id: string; kind: string; concepts: string[]; importance: number };
    expect(memory).toMatchObject({ kind: "MEMORY_KIND_EPISODE", concepts: ["stripe", "webhooks"], importance: 4 });
    const found = await cli("search", "PAY-1423", "-p", "payments");
    expect(found.code).toBe(0);
    expect(found.stdout).toContain(memory.id);
    expect(found.stdout).toContain("double-charged");
  });

  it("gets, updates, lists and archives", async () => {
    const id = JSON.parse((await cli("--json", "add", "Postgres runs on 5432", "-p", "cli")).stdout).id as string;
    expect((await cli("update", id, "--content", "Postgres runs on 5433", "--pinned")).stdout).toContain(`updated ${id}`);
    const got = await cli("get", id);
    expect(got.stdout).toMatch(/content:\s+Postgres runs on 5433/);
    expect(got.stdout).toMatch(/pinned:\s+yes/);
    expect((await cli("list", "-p", "cli")).stdout).toContain(id);
    expect((await cli("archive", id, "--reason", "moved to RDS")).stdout).toContain(`archived ${id}`);
    expect((await cli("list", "-p", "cli")).stdout).toBe("no memories\n");
    expect((await cli("list", "-p", "cli", "--status", "archived")).stdout).toContain(id);
  });

  it("prints the memory an update now contradicts, as add does", async () => {
    const clerk = JSON.parse((await cli("--json", "add", "Auth is Clerk, not custom JWT.", "-k", "decision", "-p", "cli-auth")).stdout).id as string;
    const id = JSON.parse((await cli("--json", "add", "Errors go to Sentry.", "-k", "decision", "-p", "cli-auth")).stdout).id as string;
    const lines = (await cli("update", id, "--content", "Auth moved to Auth0 last sprint; Clerk's pricing didn't work for us.")).stdout.split("\n");
    expect(lines[0]).toBe(`updated ${id}`);
    expect(lines[1]).toMatch(/^it may contradict 1 memory \(queued/);
    expect(lines[2]).toMatch(new RegExp(`^  contradiction \\d+: ${clerk} Auth is Clerk`));
  });

  it("records a checkpoint as an episode", async () => {
    const res = await cli("--json", "checkpoint", "Fixed the token refresh race", "--problem", "two tabs refreshed at once", "--solution", "single-flight", "-f", "src/auth/tokens.ts", "-p", "cli");
    expect(JSON.parse(res.stdout)).toMatchObject({ kind: "MEMORY_KIND_EPISODE", provenance: "PROVENANCE_CHECKPOINT", files: ["src/auth/tokens.ts"] });
  });

  it("prints health, stats and the agent prompt", async () => {
    expect((await cli("health")).stdout).toMatch(/^memd \S+ ok: pid \d+/);
    const stats = JSON.parse((await cli("--json", "stats")).stdout) as { total: number; byStatus: Record<string, number> };
    expect(stats.total).toBeGreaterThanOrEqual(3);
    expect(stats.byStatus.archived).toBe(1);
    const prompt = await cli("prompt");
    expect(prompt.stdout).toContain("memctl search");
    expect((await cli("prompt", "--channel", "curl")).stdout).toContain("--unix-socket");
  });

  it("exits 1 with the daemon's message when a request is refused", async () => {
    const res = await cli("add", "x", "--confidence", "1.5");
    expect(res.code).toBe(1);
    expect(res.stderr).toBe("memctl: confidence must be between 0 and 1, got 1.5\n");
    const missing = await cli("get", "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no memory has id");
  });

  it("exits 2 on usage errors", async () => {
    expect((await cli("add")).code).toBe(2);
    expect((await cli("frobnicate")).code).toBe(2);
    expect((await cli("add", "x", "--kind", "bogus")).code).toBe(2);
    expect((await cli("add", "x", "--importance", "high")).code).toBe(2);
    for (const id of ["abc", "7x", "7.5"]) {
      const settle = await cli("contradictions", "settle", id, "--keep", "newer");
      expect(settle.code).toBe(2);
      expect(settle.stderr).toMatch(/expected a (whole )?number/);
    }
    expect((await cli("--help")).code).toBe(0);
  });

  it("exports every field, archived included, and an import into an empty home reproduces it exactly", async () => {
    const exported = await cli("export");
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.some((l) => l.includes("MEMORY_STATUS_ARCHIVED"))).toBe(true);

    const other = await spawnDaemon({ home: makeHome() });
    try {
      const file = path.join(other.home, "in.jsonl");
      fs.writeFileSync(file, exported.stdout);
      const first = await runCli(other.home, ["import", file]);
      expect(first.stdout).toBe(`imported: ${lines.length} created, 0 updated, 0 unchanged\n`);
      const again = await runCli(other.home, ["import", file]);
      expect(again.stdout).toBe(`imported: 0 created, 0 updated, ${lines.length} unchanged\n`);
      const reexported = await runCli(other.home, ["export"]);
      expect(reexported.stdout).toBe(exported.stdout);
    } finally {
      await other.stop();
      fs.rmSync(other.home, { recursive: true, force: true });
    }
  });

  it("imports nothing when one line of the file is not a memory", async () => {
    const before = (await cli("export")).stdout;
    const res = await runCli(daemon.home, ["import", "-"], { input: `{"id":"01ARZ3NDEKTSV4RRFFQ69G5FAV","content":"ok","importance":3,"createTime":"2026-01-01T00:00:00Z"}\nnot json\n` });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/line 2 is not a memory.*nothing was imported/);
    expect((await cli("export")).stdout).toBe(before);
  });
});

describe("memctl without a daemon", () => {
  it("says in one line that memd is not running and how to start it", async () => {
    const home = makeHome();
    const res = await runCli(home, ["search", "anything"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`memctl: memd is not running (nothing answers on ${home}/memd.sock); start it with 'memctl start'\n`);
    fs.rmSync(home, { recursive: true, force: true });
  });

  it("starts the daemon detached, reports it running, and stops it", async () => {
    const home = makeHome();
    try {
      const started = await runCli(home, ["start"]);
      expect(started.code).toBe(0);
      expect(started.stdout).toMatch(/^memd started \(pid \d+\)/);
      expect((await runCli(home, ["start"])).stdout).toMatch(/^memd is already running/);
      expect((await runCli(home, ["health"])).code).toBe(0);
      const stopped = await runCli(home, ["stop"]);
      expect(stopped.stdout).toMatch(/^memd stopped/);
      expect((await runCli(home, ["health"])).code).toBe(1);
    } finally {
      await runCli(home, ["stop"]);
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
