import fc from "fast-check";
import pg from "pg";
import { ulid } from "ulid";
import { afterAll, beforeAll, expect, it } from "vitest";
import { NotFoundError, SchemaTooNewError } from "../../daemon/src/errors.js";
import { migrateHub } from "../../daemon/src/hub/hub-migrate.js";
import { HUB_MIGRATIONS } from "../../daemon/src/hub/hub-schema.js";
import { STREAM_START, type HubPort } from "../../daemon/src/hub/hub-port.js";
import { connectHub } from "../../daemon/src/hub/pg-hub.js";
import { buildMemory } from "../../daemon/src/memory/new-memory.js";
import type { MemoryStatus } from "../../daemon/src/memory/memory.js";
import { postgresMissing, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { describeUnless } from "../helpers/skip-unless.js";

const missing = postgresMissing();
const USERS = ["ada", "bo", "cy", "di"] as const;
const TEAMS = ["core", "web"] as const;
const PROJECTS = ["api", "ui", "ops"] as const;
const STATUSES: MemoryStatus[] = ["active", "staged", "archived", "superseded"];

describeUnless(missing, "hub isolation in a real PostgreSQL", () => {
  let server: TestPostgres;
  const hubs = new Map<string, HubPort>();

  beforeAll(async () => {
    server = await startPostgres();
    for (const user of USERS) hubs.set(user, await connectHub(await server.createUser(user, `${user}-pw`)));
  }, 60_000);

  afterAll(async () => {
    for (const hub of hubs.values()) await hub.close();
    await server?.stop();
  });

  const hub = (user: string) => hubs.get(user) as HubPort;

  it("every user sees exactly their own memories and those shared with a team of theirs (not staged), for generated teams, shares and memories", async () => {
    const caseArb = fc.record({
      teamOwners: fc.tuple(fc.constantFrom(...USERS), fc.constantFrom(...USERS)),
      members: fc.subarray(USERS.flatMap((u) => TEAMS.map((t) => `${u}/${t}`))),
      shares: fc.subarray(USERS.flatMap((u) => PROJECTS.flatMap((p) => TEAMS.map((t) => `${u}/${p}/${t}`)))),
      memories: fc.array(fc.tuple(fc.constantFrom(...USERS), fc.constantFrom(...PROJECTS), fc.constantFrom(...STATUSES)), { minLength: 1, maxLength: 24 }),
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        await server.admin("TRUNCATE memd.events, memd.memories, memd.shares, memd.team_members, memd.teams, memd.team_invitations, memd.access_generations");
        const memberOf = new Map<string, Set<string>>(TEAMS.map((t) => [t, new Set()]));
        for (const [i, team] of TEAMS.entries()) {
          const owner = c.teamOwners[i] as string;
          await hub(owner).teams.create(team);
          memberOf.get(team)?.add(owner);
        }
        for (const pair of c.members) {
          const [user, team] = pair.split("/") as [string, string];
          const owner = c.teamOwners[TEAMS.indexOf(team as (typeof TEAMS)[number])] as string;
          await hub(owner).teams.invite(team, user);
          await hub(user).teams.join(team);
          memberOf.get(team)?.add(user);
        }
        const shared = new Set<string>();
        for (const triple of c.shares) {
          const [user, project, team] = triple.split("/") as [string, string, string];
          if (memberOf.get(team)?.has(user)) {
            await hub(user).teams.share(project, team);
            shared.add(`${user}/${project}/${team}`);
          } else {
            // Another person's team is not even seen.
            await expect(hub(user).teams.share(project, team)).rejects.toBeInstanceOf(NotFoundError);
          }
        }
        const written: { id: string; owner: string; project: string; status: MemoryStatus }[] = [];
        for (const [owner, project, status] of c.memories) {
          const record = { ...buildMemory({ content: `${owner} on ${project}`, project }, ulid(), 1_000, { maxContentBytes: 10_000 }), status };
          if (status === "superseded") record.supersededBy = ulid();
          const result = await hub(owner).push({ machine: `m-${owner}`, at: 2_000, memories: [{ record, own: true, baseSeq: 0 }], events: [
            { key: `m-${owner}:${written.length}`, event: { memoryId: record.id, at: 1_000, action: "created", sessionId: "", detail: "" } },
          ] });
          expect(result.memories[0]?.result).toBe("stored");
          written.push({ id: record.id, owner, project, status });
        }
        const sees = (user: string, m: (typeof written)[number]) =>
          m.owner === user || (m.status !== "staged" && TEAMS.some((t) => shared.has(`${m.owner}/${m.project}/${t}`) && memberOf.get(t)?.has(user)));
        for (const user of USERS) {
          const expected = written.filter((m) => sees(user, m)).map((m) => m.id).sort();
          const memories = (await hub(user).pullMemories(STREAM_START, 10_000, "reader")).map((m) => m.id).sort();
          const events = (await hub(user).pullEvents(STREAM_START, 10_000, "reader")).map((e) => e.memoryId).sort();
          expect(memories).toEqual(expected);
          expect(events).toEqual(expected);
          // A memory this user may not see cannot be written over by them either.
          for (const hidden of written.filter((m) => !sees(user, m))) {
            const record = { ...buildMemory({ content: `overwritten by ${user}`, project: hidden.project }, hidden.id, 3_000, { maxContentBytes: 10_000 }) };
            const result = await hub(user).push({ machine: `m-${user}`, at: 3_000, memories: [{ record, own: true, baseSeq: 0 }], events: [] });
            expect(result.memories[0]?.result).toBe("refused");
          }
        }
        const untouched = await server.admin<{ n: string }>("SELECT count(*) AS n FROM memd.memories WHERE record->>'content' LIKE 'overwritten%'");
        expect(Number(untouched.rows[0]?.n)).toBe(0);
      }),
      { numRuns: 60 },
    );
  }, 240_000);

  it("a member removed from a team stops receiving its memories; a project unshared stops reaching the team", async () => {
    await server.admin("TRUNCATE memd.events, memd.memories, memd.shares, memd.team_members, memd.teams, memd.team_invitations, memd.access_generations");
    await hub("ada").teams.create("core");
    await hub("ada").teams.invite("core", "bo");
    await hub("bo").teams.join("core");
    await hub("ada").teams.share("api", "core");
    const push = async (content: string) => {
      const record = buildMemory({ content, project: "api" }, ulid(), 1_000, { maxContentBytes: 10_000 });
      await hub("ada").push({ machine: "m-ada", at: 1_000, memories: [{ record, own: true, baseSeq: 0 }], events: [] });
      return record.id;
    };
    const before = await push("before removal");
    expect((await hub("bo").pullMemories(STREAM_START, 100, "reader")).map((m) => m.id)).toEqual([before]);
    expect(await hub("ada").teams.removeMember("core", "bo")).toBe(true);
    await push("after removal");
    expect(await hub("bo").pullMemories(STREAM_START, 100, "reader")).toEqual([]);
    await hub("ada").teams.invite("core", "bo");
    await hub("bo").teams.join("core");
    expect((await hub("bo").state()).generation).toBe(2);
    expect((await hub("bo").pullMemories(STREAM_START, 100, "reader"))).toHaveLength(2);
    expect(await hub("ada").teams.unshare("api", "core")).toBe(true);
    expect(await hub("bo").pullMemories(STREAM_START, 100, "reader")).toEqual([]);
  });

  it("a pull never passes a change whose transaction is still open, so it cannot be skipped when it commits", async () => {
    await server.admin("TRUNCATE memd.events, memd.memories, memd.shares, memd.team_members, memd.teams, memd.team_invitations, memd.access_generations");
    const slow = new pg.Client({ connectionString: server.urlFor("ada", "ada-pw") });
    await slow.connect();
    await slow.query("BEGIN");
    const early = buildMemory({ content: "written first, committed last", project: "api" }, ulid(), 1_000, { maxContentBytes: 10_000 });
    await slow.query("INSERT INTO memd.memories (id, project, status, record, machine) VALUES ($1, 'api', 'active', $2, 'm-slow')", [early.id, JSON.stringify(early)]);
    const late = buildMemory({ content: "written second, committed first", project: "api" }, ulid(), 1_000, { maxContentBytes: 10_000 });
    await hub("ada").push({ machine: "m-ada", at: 1_000, memories: [{ record: late, own: true, baseSeq: 0 }], events: [] });
    const first = await hub("ada").pullMemories(STREAM_START, 100, "reader");
    expect(first).toEqual([]);
    await slow.query("COMMIT");
    await slow.end();
    const all = await hub("ada").pullMemories(STREAM_START, 100, "reader");
    expect(all.map((m) => m.id).sort()).toEqual([early.id, late.id].sort());
  });

  it("reads the stream in the order of transaction ids as numbers, also across a power of ten (999 before 1000)", async () => {
    await server.admin("TRUNCATE memd.events, memd.memories, memd.shares, memd.team_members, memd.teams, memd.team_invitations, memd.access_generations");
    const push = async (content: string) => {
      const record = buildMemory({ content, project: "api" }, ulid(), 1_000, { maxContentBytes: 10_000 });
      await hub("ada").push({ machine: "m-ada", at: 1_000, memories: [{ record, own: true, baseSeq: 0 }], events: [] });
      return record.id;
    };
    const first = await push("before the boundary");
    const current = Number((await server.admin<{ x: string }>("SELECT pg_current_xact_id()::text AS x")).rows[0]?.x);
    const boundary = 10 ** String(current).length;
    // Burn transaction ids up to the next power of ten, one committed transaction each.
    await server.admin(`DO $$ BEGIN FOR i IN 1..${boundary - current + 1} LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$`);
    const second = await push("after the boundary");
    const page1 = await hub("ada").pullMemories(STREAM_START, 1, "reader");
    expect(page1.map((m) => m.id)).toEqual([first]);
    const page2 = await hub("ada").pullMemories((page1[0] as { cursor: typeof STREAM_START }).cursor, 1, "reader");
    expect(page2.map((m) => m.id)).toEqual([second]);
    expect(Number(page2[0]?.cursor.txid)).toBeGreaterThanOrEqual(boundary);
  });

  it("refuses only the item the hub's checks refuse, and stores the rest of its batch", async () => {
    await server.admin("TRUNCATE memd.events, memd.memories, memd.shares, memd.team_members, memd.teams, memd.team_invitations, memd.access_generations");
    const big = buildMemory({ content: "x ".repeat(600_000), project: "api" }, ulid(), 1_000, { maxContentBytes: 2_000_000 });
    const fine = buildMemory({ content: "a normal memory", project: "api" }, ulid(), 1_000, { maxContentBytes: 10_000 });
    const result = await hub("ada").push({ machine: "m-ada", at: 1_000, memories: [{ record: big, own: true, baseSeq: 0 }, { record: fine, own: true, baseSeq: 0 }], events: [
      { key: "m-ada:1", event: { memoryId: fine.id, at: 1_000, action: "created", sessionId: "", detail: "" } },
      { key: "m-ada:2", event: { memoryId: fine.id, at: 1_000, action: "updated", sessionId: "", detail: "y".repeat(2_200_000) } },
    ] });
    expect(result.memories.find((o) => o.id === big.id)).toMatchObject({ result: "refused", reason: expect.stringMatching(/refused/) });
    expect(result.memories.find((o) => o.id === fine.id)?.result).toBe("stored");
    expect(result).toMatchObject({ eventsStored: 1, eventsRefused: [{ key: "m-ada:2", reason: expect.stringMatching(/refused/) }] });
    expect((await hub("ada").pullMemories(STREAM_START, 10, "reader")).map((m) => m.id)).toEqual([fine.id]);
  });

  it("does not send a machine back what it wrote itself, memories or events", async () => {
    await server.admin("TRUNCATE memd.events, memd.memories, memd.shares, memd.team_members, memd.teams, memd.team_invitations, memd.access_generations");
    const record = buildMemory({ content: "written on m-ada", project: "api" }, ulid(), 1_000, { maxContentBytes: 10_000 });
    await hub("ada").push({ machine: "m-ada", at: 1_000, memories: [{ record, own: true, baseSeq: 0 }], events: [
      { key: "m-ada:1", event: { memoryId: record.id, at: 1_000, action: "created", sessionId: "", detail: "" } },
    ] });
    expect(await hub("ada").pullMemories(STREAM_START, 10, "m-ada")).toEqual([]);
    expect(await hub("ada").pullEvents(STREAM_START, 10, "m-ada")).toEqual([]);
    expect((await hub("ada").pullMemories(STREAM_START, 10, "m-ada2")).map((m) => m.id)).toEqual([record.id]);
    expect((await hub("ada").pullEvents(STREAM_START, 10, "m-ada2")).map((e) => e.key)).toEqual(["m-ada:1"]);
  });

  it("refuses a hub written by a newer memd, and tells a user of a hub not made yet what to do", async () => {
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    try {
      const newer = [...HUB_MIGRATIONS, { version: HUB_MIGRATIONS.length + 1, name: "from the future", sql: "CREATE TABLE memd.future (x int)" }];
      await migrateHub(admin, "newer memd", newer);
      await expect(connectHub(server.urlFor("ada", "ada-pw"))).rejects.toBeInstanceOf(SchemaTooNewError);
      await expect(migrateHub(admin, "older memd")).rejects.toBeInstanceOf(SchemaTooNewError);
      await admin.query("DROP TABLE memd.future");
      await admin.query("UPDATE memd.hub_meta SET schema_version = $1", [HUB_MIGRATIONS.length]);
      await admin.query("CREATE DATABASE empty_db");
      const empty = server.urlFor("ada", "ada-pw").replace("/memd_hub", "/empty_db");
      await expect(connectHub(empty)).rejects.toThrow(/not a memd hub yet.*memctl hub init/);
    } finally {
      await admin.end();
    }
  });
});
