import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { removeDaemon, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { refusal } from "../helpers/refusal.js";

let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await spawnDaemon();
});
afterAll(() => removeDaemon(daemon));

const TEN_MB = "s".repeat(10 * 1024 * 1024);

async function refusedAs(call: Promise<unknown>, message: RegExp): Promise<void> {
  const refused = await refusal(call);
  expect(refused.code).toBe(Code.InvalidArgument);
  expect(refused.rawMessage).toMatch(message);
}

describe("the size bound of every request field", () => {
  it("refuses a 10 MB session_id on Save and Checkpoint, and stores nothing", async () => {
    const { memory } = daemon.clients;
    await refusedAs(memory.save({ content: "a memory from a very long session", project: "bounds", sessionId: TEN_MB }), /^session_id is 10485760 bytes; at most 256 are accepted/);
    await refusedAs(memory.checkpoint({ summary: "a checkpoint", project: "bounds", sessionId: TEN_MB }), /^session_id is 10485760 bytes/);
    expect((await memory.list({ project: "bounds" })).memories).toEqual([]);
  });

  it("refuses a 1 MB supersede reason before anything is recorded", async () => {
    const { memory } = daemon.clients;
    const old = (await memory.save({ content: "deploys go out on Fridays", project: "bounds-reason" })).memory;
    await refusedAs(memory.supersede({ id: old?.id as string, content: "deploys never go out on Fridays", reason: "r".repeat(1024 * 1024) }), /^reason is 1048576 bytes; at most 4096/);
    const history = await memory.history({ id: old?.id as string });
    expect(history.chain).toHaveLength(1);
    expect(history.events.map((e) => e.action)).toEqual(["created"]);
  });

  it("counts a list's entries before any work: 100k concepts on Save, 50k kinds on List", async () => {
    const { memory } = daemon.clients;
    await refusedAs(memory.save({ content: "a memory with very many concepts", concepts: Array.from({ length: 100_000 }, (_, i) => `concept-${i}`) }), /^concepts has 100000 entries; at most 256/);
    await refusedAs(memory.list({ kinds: Array.from({ length: 50_000 }, () => MemoryKind.FACT) }), /^kinds has 50000 entries; at most 32/);
  });

  it("refuses a path with a NUL and one longer than PATH_MAX to CompressMemoryFiles", async () => {
    const files = daemon.clients.memoryFiles;
    await refusedAs(files.compressMemoryFiles({ project: "global", paths: ["/tmp/notes\0.md"] }), /^paths holds a NUL or another control character/);
    await refusedAs(files.compressMemoryFiles({ project: "global", paths: [`/tmp/${"n".repeat(6000)}.md`] }), /^paths\[0\] is 6008 bytes; at most 4096/);
  });
});

describe("Import's checks of the memories it keeps as given", () => {
  const base = { content: "imported", project: "bounds-import", importance: 3, createTime: { seconds: 1_760_000_000n, nanos: 0 } };

  it.each([
    ["an id past the largest ULID", { ...base, id: "8ZZZZZZZZZZZZZZZZZZZZZZZZZ" }, /is not a ULID/],
    ["a memory that supersedes itself", { ...base, id: "01JBX0000000000000000000S1", supersedes: "01JBX0000000000000000000S1" }, /names itself in supersedes/],
    ["a superseded memory that names nothing that replaced it", { ...base, id: "01JBX0000000000000000000S2", status: MemoryStatus.SUPERSEDED }, /superseded but names no superseded_by/],
  ])("refuses %s and creates nothing of the batch", async (_name, bad, message) => {
    const fine = { ...base, id: "01JBX0000000000000000000K1" };
    await refusedAs(daemon.clients.admin.import({ memories: [fine, bad] }), message);
    expect((await daemon.clients.memory.list({ project: "bounds-import" })).memories).toEqual([]);
  });
});
