import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind } from "../../gen/memd/v1/memory_pb.js";
import { makeHome, removeDaemon, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawRequest } from "../helpers/raw-http.js";

/**
 * Rows an older memd or a hand edit in the sqlite3 shell left behind, written into the real
 * database file while the daemon is stopped; then the daemon starts on it.
 */
describe("stored rows memd cannot convert", () => {
  let daemon: TestDaemon;
  const ids: Record<"future" | "garbled" | "fine", string> = { future: "", garbled: "", fine: "" };

  beforeAll(async () => {
    const home = makeHome();
    const first = await spawnDaemon({ home });
    for (const [name, content] of [["future", "the release train leaves on Tuesdays"], ["garbled", "the release notes live in CHANGES.md"], ["fine", "the release tag is signed with the team key"]] as const) {
      ids[name] = (await first.clients.memory.save({ content, project: "rows", concepts: ["release"] })).memory?.id as string;
    }
    await first.stop();
    const db = new Database(path.join(home, "memd.db"));
    // What a memd before time validation stored for "9999-12-31T23:59:59.9995Z", and a kind from nowhere.
    db.prepare("UPDATE memories SET expires_at = 253402300800000, kind = 'gizmo' WHERE id = ?").run(ids.future);
    db.prepare("UPDATE memory_events SET at = 1e20 WHERE memory_id = ?").run(ids.future);
    db.prepare("UPDATE memories SET concepts = 'release, notes', created_at = 'yesterday', confidence = 'high' WHERE id = ?").run(ids.garbled);
    db.close();
    daemon = await spawnDaemon({ home });
  });
  afterAll(() => removeDaemon(daemon));

  it("reads every memory of the project, as JSON and binary, with the bad values repaired", async () => {
    const list = await daemon.clients.memory.list({ project: "rows" });
    expect(list.memories.map((m) => m.id).sort()).toEqual(Object.values(ids).sort());
    const future = (await daemon.clients.memory.get({ id: ids.future })).memory;
    expect(future?.kind).toBe(MemoryKind.FACT);
    expect(future?.expireTime?.seconds).toBe(253_402_300_799n);
    const garbled = (await daemon.clients.memory.get({ id: ids.garbled })).memory;
    expect(garbled?.concepts).toEqual([]);
    expect(garbled?.content).toBe("the release notes live in CHANGES.md");
    expect((await daemon.clients.memory.search({ query: "release", project: "rows" })).results).toHaveLength(3);
    const json = await rawRequest({ socketPath: daemon.socketPath, path: "/memd.v1.MemoryService/List", body: JSON.stringify({ project: "rows" }) });
    expect(json.status).toBe(200);
    expect(json.body).toContain('"expireTime":"9999-12-31T23:59:59.999Z"');
  });

  it("answers History, as JSON too, when an event's stored time is past 9999", async () => {
    const history = await rawRequest({ socketPath: daemon.socketPath, path: "/memd.v1.MemoryService/History", body: JSON.stringify({ id: ids.future }) });
    expect(history.status).toBe(200);
    expect(history.body).toContain('"time":"9999-12-31T23:59:59.999Z"');
  });

  it("exports every memory, the repaired ones included, and exits 0", async () => {
    const exported = await runCli(daemon.home, ["export"]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trim().split("\n").map((line) => JSON.parse(line) as { id: string });
    expect(lines.map((m) => m.id).sort()).toEqual(Object.values(ids).sort());
  });

  it("reports each repaired memory in the log, once, with what was wrong", async () => {
    await daemon.clients.memory.get({ id: ids.garbled });
    const log = fs.readFileSync(path.join(daemon.home, "logs/memd.log"), "utf8").split("\n").filter((line) => line.includes("values memd cannot use"));
    const reported = log.map((line) => JSON.parse(line) as { memoryId: string; problems: string[] });
    expect(reported.map((r) => r.memoryId).sort()).toEqual([ids.future, ids.garbled].sort());
    expect(reported.find((r) => r.memoryId === ids.garbled)?.problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^concepts/), expect.stringMatching(/^created_at/), expect.stringMatching(/^confidence/)]),
    );
  });

  it("stores the repaired values once the memory is updated", async () => {
    await daemon.clients.memory.update({ id: ids.future, content: "the release train leaves on Wednesdays" });
    await daemon.stop();
    const db = new Database(path.join(daemon.home, "memd.db"), { readonly: true });
    const row = db.prepare("SELECT kind, expires_at FROM memories WHERE id = ?").get(ids.future);
    db.close();
    expect(row).toEqual({ kind: "fact", expires_at: 253_402_300_799_999 });
  });
});
