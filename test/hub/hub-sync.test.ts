import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { MemoryStatus, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { makeHome, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { postgresMissing, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.js";
import { until } from "../helpers/until.js";

const missing = postgresMissing();
const ALL_STATUSES = [MemoryStatus.ACTIVE, MemoryStatus.STAGED, MemoryStatus.ARCHIVED, MemoryStatus.SUPERSEDED];

/**
 * Three "machines" (real daemons on homes of their own) and a real PostgreSQL hub: A and B are
 * ada's laptop and dev box, C is bo's. A reaches the hub through a relay the test can cut.
 */
describeUnless(missing, "memory across machines through a PostgreSQL hub", () => {
  let server: TestPostgres;
  let proxy: TcpProxy;
  let ada: string;
  let bo: string;
  const daemons: Record<"a" | "b" | "c", TestDaemon> = {} as never;
  const homes = { a: makeHome(), b: makeHome(), c: makeHome() };

  beforeAll(async () => {
    server = await startPostgres();
    ada = await server.createUser("ada", "ada-pw");
    bo = await server.createUser("bo", "bo-pw");
    proxy = await startTcpProxy(server.port);
    daemons.a = await spawnDaemon({ home: homes.a });
    // B takes its hub from the environment, A and C from memctl hub connect.
    daemons.b = await spawnDaemon({ home: homes.b, env: { MEMD_HUB_URL: ada } });
    daemons.c = await spawnDaemon({ home: homes.c });
    const viaProxy = ada.replace(`:${server.port}/`, `:${proxy.port}/`);
    for (const [home, url] of [[homes.a, viaProxy], [homes.c, bo]] as const) {
      const connected = await runCli(home, ["hub", "connect", url]);
      expect(connected.stderr).toBe("");
      expect(connected.code).toBe(0);
    }
  }, 120_000);

  // A failure says what the daemons said, and whether one of them had exited.
  afterEach((context) => {
    if (context.task.result?.state !== "fail") return;
    for (const [name, daemon] of Object.entries(daemons)) {
      const exited = daemon.process.exitCode !== null || daemon.process.signalCode !== null;
      console.error(`daemon ${name}${exited ? ` exited (${daemon.process.exitCode ?? daemon.process.signalCode})` : ""}: ${daemon.stderr().slice(-3000)}`);
      const log = path.join(daemon.home, "logs", "memd.log");
      if (fs.existsSync(log)) console.error(fs.readFileSync(log, "utf8").split("\n").filter((l) => !l.includes('"level":30')).slice(-20).join("\n"));
    }
  });

  afterAll(async () => {
    for (const daemon of Object.values(daemons)) await daemon?.stop();
    await proxy?.close();
    await server?.stop();
    for (const home of Object.values(homes)) fs.rmSync(home, { recursive: true, force: true });
  });

  const found = async (daemon: TestDaemon, query: string, project = "api") =>
    (await daemon.clients.memory.search({ query, project })).results.map((r) => r.memory?.content ?? "");
  const listed = async (daemon: TestDaemon, project: string) => {
    const memories = [];
    let pageToken = "";
    do {
      const page = await daemon.clients.memory.list({ project, statuses: ALL_STATUSES, pageSize: 1000, pageToken });
      memories.push(...page.memories);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return memories;
  };

  it("a save on A is searchable on B", async () => {
    await daemons.a.clients.memory.save({ content: "the auth service uses short-lived JWTs signed with ed25519", project: "api" });
    const onB = await until(() => found(daemons.b, "JWTs ed25519"), (r) => r.length > 0, 10_000);
    expect(onB).toEqual(["the auth service uses short-lived JWTs signed with ed25519"]);
    const status = await runCli(homes.b, ["hub", "status", "--json"]);
    const parsed = JSON.parse(status.stdout);
    expect(parsed).toMatchObject({ enabled: true, connected: true, user: "ada" });
    expect(parsed.url).not.toContain("ada-pw");
  });

  it("a supersede on B shows its chain on A", async () => {
    const saved = await daemons.b.clients.memory.save({ content: "deploys go out on Tuesdays", project: "api" });
    const id = saved.memory?.id ?? "";
    await until(() => daemons.a.clients.memory.get({ id }).then(() => true, () => false), (ok) => ok, 10_000);
    const next = await daemons.b.clients.memory.supersede({ id, content: "deploys go out on Thursdays", reason: "the release train moved" });
    const newId = next.memory?.id ?? "";
    const history = await until(
      () => daemons.a.clients.memory.history({ id: newId }).catch(() => undefined),
      (h) => h !== undefined && h.chain.length === 2 && h.events.some((e) => e.action === "superseded"),
      10_000,
    );
    expect(history?.chain.map((m) => m.content)).toEqual(["deploys go out on Tuesdays", "deploys go out on Thursdays"]);
    expect(history?.chain[0]?.status).toBe(MemoryStatus.SUPERSEDED);
    expect(await found(daemons.a, "deploys Thursdays")).toEqual(["deploys go out on Thursdays"]);
  });

  it("writes on both sides during A's hub outage catch up, and a memory changed on both keeps the later version with the other in its history", async () => {
    const shared = await daemons.a.clients.memory.save({ content: "the flaky test is caused by a shared tmp dir", project: "api" });
    const id = shared.memory?.id ?? "";
    await until(() => daemons.b.clients.memory.get({ id }).then(() => true, () => false), (ok) => ok, 10_000);
    proxy.cut();
    try {
      await outage(id);
    } finally {
      proxy.restore();
    }
  });

  /** A's side of the outage: local work as usual, while B, still connected, writes too. */
  async function outage(id: string) {
    // Local work on A goes on as if nothing happened (bench:hub measures how fast, "hub down").
    const onlyA = await daemons.a.clients.memory.save({ content: "saved on A while the hub was out of reach", project: "api" });
    const editedOnA = (await daemons.a.clients.memory.update({ id, content: "the flaky test is caused by a shared tmp dir (edited on A)" })).memory?.updateTime;
    expect(await until(() => found(daemons.a, "hub out of reach"), (r) => r.includes("saved on A while the hub was out of reach"), 5_000)).toContain(
      "saved on A while the hub was out of reach",
    );
    // B's edit must be the later one: its clock has passed A's edit before B makes it.
    const editedOnAMs = editedOnA ? timestampMs(editedOnA) : Number.POSITIVE_INFINITY;
    expect(await until(() => Date.now(), (now) => now > editedOnAMs)).toBeGreaterThan(editedOnAMs);
    const onlyB = await daemons.b.clients.memory.save({ content: "saved on B while A was cut off", project: "api" });
    await daemons.b.clients.memory.update({ id, content: "the flaky test is caused by a shared tmp dir and a fixed port (edited on B, later)" });
    const statusCut = JSON.parse((await runCli(homes.a, ["hub", "status", "--json"])).stdout);
    expect(Number(statusCut.pendingMemories)).toBeGreaterThan(0);
    proxy.restore();
    for (const daemon of [daemons.a, daemons.b]) {
      const both = await until(
        async () => [(await daemon.clients.memory.get({ id: onlyA.memory?.id ?? "" }).catch(() => undefined))?.memory?.content, (await daemon.clients.memory.get({ id: onlyB.memory?.id ?? "" }).catch(() => undefined))?.memory?.content],
        (c) => c.every((x) => x !== undefined),
        40_000,
      );
      expect(both).toEqual(["saved on A while the hub was out of reach", "saved on B while A was cut off"]);
      const history = await until(
        () => daemon.clients.memory.history({ id }),
        (h) => h.chain[0]?.content.includes("edited on B") === true && h.events.some((e) => e.action === "conflict"),
        40_000,
      );
      expect(history.chain[0]?.content).toContain("edited on B, later");
      const conflict = history.events.find((e) => e.action === "conflict");
      expect(JSON.parse(conflict?.detail ?? "{}").replacedVersion.content).toBe("the flaky test is caused by a shared tmp dir (edited on A)");
    }
  }

  it("kill -9 of a daemon in the middle of a sync loses nothing", async () => {
    const memories = Array.from({ length: 1500 }, (_, i) => ({ content: `bulk memory ${i} about the ingest pipeline`, project: "bulk" }));
    for (let i = 0; i < memories.length; i += 100) {
      await Promise.all(memories.slice(i, i + 100).map((m) => daemons.a.clients.memory.save(m)));
    }
    // B is pulling them: kill it part-way, then start it again on the same home.
    const atKill = await until(async () => (await listed(daemons.b, "bulk")).length, (n) => n > 0, 20_000);
    await daemons.b.kill();
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(memories.length);
    const afterKill = await spawnDaemon({ home: homes.b, env: { MEMD_HUB_URL: ada } });
    daemons.b = afterKill;
    // A is pushing more: kill it part-way through its outbox too.
    const more = Array.from({ length: 500 }, (_, i) => ({ content: `second bulk ${i} about the ingest pipeline`, project: "bulk" }));
    await Promise.all(more.map((m) => daemons.a.clients.memory.save(m)));
    await daemons.a.kill();
    daemons.a = await spawnDaemon({ home: homes.a });
    const onB = await until(async () => (await listed(daemons.b, "bulk")).length, (n) => n === 2000, 60_000);
    expect(onB).toBe(2000);
    const onA = await listed(daemons.a, "bulk");
    expect(onA).toHaveLength(2000);
    expect(new Set(onA.map((m) => m.content)).size).toBe(2000);
  }, 180_000);

  it("a project shared with a team reaches its members (staged guesses and other projects do not), and stops when unshared or the member is removed", async () => {
    await daemons.a.clients.memory.save({ content: "ada's private note on the ops rota", project: "ops" });
    await daemons.a.clients.memory.save({ content: "a staged guess about the api cache", project: "api", provenance: Provenance.DISTILLED });
    expect((await runCli(homes.a, ["team", "create", "core"])).code).toBe(0);
    expect((await runCli(homes.a, ["team", "add", "core", "bo"])).code).toBe(0);
    expect((await runCli(homes.c, ["team", "join", "core"])).code).toBe(0);
    const notMember = await runCli(homes.c, ["team", "share", "api", "web"]);
    expect(notMember.code).not.toBe(0);
    expect(notMember.stderr).toMatch(/no team named web/);
    const share = await runCli(homes.a, ["team", "share", "api", "core"]);
    expect(share.stdout).toMatch(/shared with core/);
    const onC = await until(() => found(daemons.c, "JWTs ed25519"), (r) => r.length > 0, 10_000);
    expect(onC).toHaveLength(1);
    const cApi = await until(() => listed(daemons.c, "api"), (m) => m.some((x) => x.content.startsWith("deploys go out on Thursdays")), 10_000);
    expect(cApi.some((m) => m.content.includes("staged guess"))).toBe(false);
    expect(await listed(daemons.c, "ops")).toEqual([]);
    // A member corrects a shared memory; the owner's machines see it.
    const jwt = cApi.find((m) => m.content.includes("JWTs")) as { id: string };
    await daemons.c.clients.memory.update({ id: jwt.id, content: "the auth service uses short-lived JWTs signed with ed25519, rotated weekly" });
    await until(async () => (await daemons.b.clients.memory.get({ id: jwt.id })).memory?.content, (c) => c?.includes("rotated weekly") === true, 10_000);
    const teams = JSON.parse((await runCli(homes.c, ["team", "list", "--json"])).stdout);
    expect(teams.teams[0]).toMatchObject({ name: "core", owner: "ada", members: ["ada", "bo"], shares: [{ owner: "ada", project: "api" }] });
    // A second team shares another project with bo, for the sentinels below.
    expect((await runCli(homes.a, ["team", "create", "pair"])).code).toBe(0);
    expect((await runCli(homes.a, ["team", "add", "pair", "bo"])).code).toBe(0);
    expect((await runCli(homes.c, ["team", "join", "pair"])).code).toBe(0);
    expect((await runCli(homes.a, ["team", "share", "web", "pair"])).stdout).toMatch(/shared with pair/);

    expect((await runCli(homes.a, ["team", "unshare", "api", "core"])).stdout).toMatch(/no longer shared/);
    await daemons.a.clients.memory.save({ content: "after unsharing: the api rate limit is 100 rps", project: "api" });
    await until(() => found(daemons.b, "rate limit rps"), (r) => r.length > 0, 10_000);
    await pulledPast(daemons.c, "the web app's sentinel after unsharing");
    expect(await found(daemons.c, "rate limit rps")).toEqual([]);
    // What C already received stays on C.
    expect(await found(daemons.c, "JWTs ed25519")).toHaveLength(1);

    expect((await runCli(homes.a, ["team", "share", "api", "core"])).code).toBe(0);
    await until(() => found(daemons.c, "rate limit rps"), (r) => r.length > 0, 10_000);
    expect((await runCli(homes.a, ["team", "remove", "core", "bo"])).stdout).toMatch(/receive none of its memories from now on/);
    await daemons.a.clients.memory.save({ content: "after removal: the api timeout is 30 seconds", project: "api" });
    await until(() => found(daemons.b, "timeout 30 seconds"), (r) => r.length > 0, 10_000);
    await pulledPast(daemons.c, "the web app's sentinel after removal");
    expect(await found(daemons.c, "timeout 30 seconds")).toEqual([]);
  });

  /**
   * A sentinel for what a daemon pulls: A saves a memory of the project shared with the pair team,
   * and `daemon` waits until it has it. The hub hands changes out in order, so a change that
   * reached the hub before it and did not arrive by then was not for this daemon.
   */
  async function pulledPast(daemon: TestDaemon, content: string): Promise<void> {
    await daemons.a.clients.memory.save({ content, project: "web" });
    expect(await until(() => listed(daemon, "web"), (m) => m.some((x) => x.content === content), 10_000)).toContainEqual(expect.objectContaining({ content }));
  }

  it("bad hub URLs and team names get clear errors, and a daemon with no hub says so", async () => {
    const notPostgres = await runCli(homes.c, ["hub", "connect", "http://example.com/db"]);
    expect(notPostgres.code).not.toBe(0);
    expect(notPostgres.stderr).toMatch(/must be a postgres:\/\/ URL/);
    const wrongPassword = await runCli(homes.c, ["hub", "connect", bo.replace("bo-pw", "wrong")]);
    expect(wrongPassword.stderr).toMatch(/refused the login/);
    const unreachable = await runCli(homes.c, ["hub", "connect", `postgres://bo:x@127.0.0.1:1/memd_hub`]);
    expect(unreachable.stderr).toMatch(/unreachable/);
    const badTeam = await runCli(homes.c, ["team", "create", "no spaces"]);
    expect(badTeam.stderr).toMatch(/is not a team name/);
    const envSet = await runCli(homes.b, ["hub", "disconnect"]);
    expect(envSet.stderr).toMatch(/MEMD_HUB_URL is set/);
    // The failed connects left C syncing with its hub as before.
    expect(JSON.parse((await runCli(homes.c, ["hub", "status", "--json"])).stdout)).toMatchObject({ enabled: true, user: "bo" });
    expect((await runCli(homes.c, ["hub", "disconnect"])).stdout).toMatch(/disconnected/);
    expect((await runCli(homes.c, ["hub", "status"])).stdout).toMatch(/no hub is connected/);
    expect((await runCli(homes.c, ["team", "list"])).stderr).toMatch(/no hub is connected/);
  });
});
