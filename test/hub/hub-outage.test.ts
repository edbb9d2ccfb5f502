import fs from "node:fs";
import path from "node:path";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import pg from "pg";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { MemoryService } from "../../gen/memd/v1/memory_service_pb.js";
import { freePort, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { postgresMissing, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { until } from "../helpers/until.js";

const missing = postgresMissing();
const SAVES = 300;

/**
 * The hub is somebody else's server: it can die, come back, or lose its rows while a daemon is
 * pushing to it. A real daemon answers Saves over TCP while a real PostgreSQL hub is killed
 * (kill -9 of the postmaster), restarted, or truncated under a push held open by a lock; the
 * daemon must live through all of it and the hub must end up with every Save it answered.
 */
describeUnless(missing, "hub outages in the middle of a push", () => {
  let server: TestPostgres;
  let daemon: TestDaemon;
  let tcp: Client<typeof MemoryService>;
  let port: number;
  let url: string;

  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createUser("ada", "ada-pw");
    port = await freePort();
    daemon = await spawnDaemon({ args: ["--listen", `127.0.0.1:${port}`], env: { MEMD_HUB_URL: url } });
    const token = fs.readFileSync(path.join(daemon.home, "token"), "utf8").trim();
    const bearer: Interceptor = (next) => (req) => {
      req.header.set("authorization", `Bearer ${token}`);
      return next(req);
    };
    tcp = createClient(MemoryService, createConnectTransport({ baseUrl: `http://127.0.0.1:${port}`, httpVersion: "1.1", interceptors: [bearer] }));
  }, 120_000);

  afterEach((context) => {
    if (context.task.result?.state !== "fail") return;
    const exited = daemon.process.exitCode !== null || daemon.process.signalCode !== null;
    console.error(`daemon${exited ? ` exited (${daemon.process.exitCode ?? daemon.process.signalCode})` : ""}: ${daemon.stderr().slice(-4000)}`);
  });

  afterAll(async () => {
    await daemon?.stop();
    await server?.stop();
    if (daemon) fs.rmSync(daemon.home, { recursive: true, force: true });
  });

  const alive = () => daemon.process.exitCode === null && daemon.process.signalCode === null;
  const status = async () => JSON.parse((await runCli(daemon.home, ["hub", "status", "--json"])).stdout);
  const onHub = async (project: string) =>
    new Set((await server.admin<{ id: string }>("SELECT id FROM memd.memories WHERE project = $1", [project])).rows.map((r) => r.id));
  const eventsOnHub = async (project: string) =>
    Number((await server.admin<{ n: string }>("SELECT count(*) AS n FROM memd.events e JOIN memd.memories m ON m.id = e.memory_id WHERE m.project = $1", [project])).rows[0]?.n);

  /**
   * Holds the daemon's next push open: a session of the hub's owner locks the memories table
   * against writes, and the returned promise resolves once the daemon's push waits on that lock.
   */
  async function holdPush(): Promise<pg.Client> {
    const holder = new pg.Client({ connectionString: server.adminUrl });
    holder.on("error", () => undefined);
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query("LOCK TABLE memd.memories IN EXCLUSIVE MODE");
    return holder;
  }

  async function pushWaitsOnLock(): Promise<boolean> {
    return until(
      async () => Number((await server.admin<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'memd' AND wait_event_type = 'Lock'")).rows[0]?.n) > 0,
      (waiting) => waiting,
      30_000,
    );
  }

  /** Starts `SAVES` Saves over TCP at once, and says which were answered. */
  function saveMany(project: string): Promise<PromiseSettledResult<string>[]> {
    return Promise.allSettled(
      Array.from({ length: SAVES }, async (_, i) => (await tcp.save({ content: `outage memory ${i} about the ${project} rollout`, project })).memory?.id ?? ""),
    );
  }

  function answered(results: PromiseSettledResult<string>[]): string[] {
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed.map((r) => String((r as PromiseRejectedResult).reason)).slice(0, 3)).toEqual([]);
    return results.map((r) => (r as PromiseFulfilledResult<string>).value);
  }

  it("the hub killed (kill -9 of its postmaster) while a push of hundreds of Saves is open: the daemon lives, answers every Save, and fills the hub once it is back", async () => {
    const holder = await holdPush();
    const saving = saveMany("killed");
    expect(await pushWaitsOnLock()).toBe(true);
    await server.kill();
    const ids = answered(await saving);
    expect(ids).toHaveLength(SAVES);
    expect(alive()).toBe(true);
    const down = await until(status, (s) => s.lastError !== undefined && s.lastError !== "", 30_000);
    expect(down.lastError).toMatch(/unreachable|terminated|ECONNREFUSED/i);
    await holder.end().catch(() => undefined);
    await server.restart();
    const hub = await until(() => onHub("killed"), (held) => ids.every((id) => held.has(id)), 90_000);
    expect(ids.filter((id) => !hub.has(id))).toEqual([]);
    expect(await until(() => eventsOnHub("killed"), (n) => n >= SAVES, 30_000)).toBe(SAVES);
    expect(alive()).toBe(true);
    expect(await until(status, (s) => s.connected === true && Number(s.pendingMemories ?? 0) === 0, 30_000)).toMatchObject({ connected: true });
  }, 180_000);

  it("the hub killed at a moment of its own choosing while Saves stream in over TCP: nothing answered is lost", async () => {
    const saving = saveMany("restarted");
    // Kill as soon as the first of them reached the hub, while the rest are still being answered and pushed.
    await until(async () => (await onHub("restarted").catch(() => new Set<string>())).size, (n) => n > 0, 30_000);
    await server.kill();
    const ids = answered(await saving);
    expect(alive()).toBe(true);
    await server.restart();
    const hub = await until(() => onHub("restarted"), (held) => ids.every((id) => held.has(id)), 90_000);
    expect(ids.filter((id) => !hub.has(id))).toEqual([]);
    expect(alive()).toBe(true);
  }, 180_000);

  it("the hub truncated (TRUNCATE memd.memories, memd.events) under a push: the daemon fills it again without being asked, and hub status says what happened", async () => {
    const before = [...(await onHub("killed")), ...(await onHub("restarted"))];
    expect(before.length).toBeGreaterThan(0);
    const holder = await holdPush();
    const saving = saveMany("truncated");
    expect(await pushWaitsOnLock()).toBe(true);
    await holder.query("TRUNCATE memd.memories, memd.events");
    await holder.query("COMMIT");
    await holder.end();
    const ids = answered(await saving);
    const all = [...before, ...ids];
    const held = async () => new Set((await server.admin<{ id: string }>("SELECT id FROM memd.memories")).rows.map((r) => r.id));
    const hub = await until(held, (h) => all.every((id) => h.has(id)), 90_000);
    expect(all.filter((id) => !hub.has(id))).toEqual([]);
    expect(await until(() => eventsOnHub("truncated"), (n) => n >= SAVES, 30_000)).toBe(SAVES);
    const noticed = await until(status, (s) => /truncated or deleted/.test(s.notice ?? ""), 30_000);
    expect(noticed.notice).toMatch(/the hub lost rows: its owner truncated or deleted memories or events/);
    expect(alive()).toBe(true);
  }, 180_000);

  it("another hub at the same URL (its database dropped and made again): the daemon fills the new one and says so", async () => {
    const before = (await server.admin<{ id: string }>("SELECT id FROM memd.memories")).rows.map((r) => r.id);
    expect(before.length).toBeGreaterThan(0);
    await server.replace();
    const held = async () => new Set((await server.admin<{ id: string }>("SELECT id FROM memd.memories")).rows.map((r) => r.id));
    const hub = await until(held, (h) => before.every((id) => h.has(id)), 90_000);
    expect(before.filter((id) => !hub.has(id))).toEqual([]);
    const noticed = await until(status, (s) => /another hub/.test(s.notice ?? ""), 30_000);
    expect(noticed.notice).toMatch(/the hub at this URL is another hub than the one this machine synced with/);
    expect(alive()).toBe(true);
  }, 180_000);

  it("a hub that stops answering (SIGSTOP) in the middle of a push keeps the daemon from nothing: Saves are answered, it stops when told, and what it held reaches the hub later", async () => {
    const holder = await holdPush();
    const saving = saveMany("hung");
    expect(await pushWaitsOnLock()).toBe(true);
    server.pause();
    let resumed = false;
    try {
      const ids = answered(await saving);
      expect(await daemon.stop()).toBe(0);
      server.resume();
      resumed = true;
      await holder.end().catch(() => undefined);
      daemon = await spawnDaemon({ home: daemon.home, args: ["--listen", `127.0.0.1:${port}`], env: { MEMD_HUB_URL: url } });
      const hub = await until(() => onHub("hung"), (held) => ids.every((id) => held.has(id)), 90_000);
      expect(ids.filter((id) => !hub.has(id))).toEqual([]);
    } finally {
      if (!resumed) server.resume();
    }
  }, 180_000);
});
