import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind } from "../../gen/memd/v1/memory_pb.js";
import { removeDaemon, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawRequest } from "../helpers/raw-http.js";
import { refusalCode } from "../helpers/refusal.js";

let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await spawnDaemon();
});
afterAll(() => removeDaemon(daemon));

// One second past 9999-12-31T23:59:59Z: a Timestamp the binary encoding carries and JSON cannot.
const PAST_9999 = { seconds: 253_402_300_800n, nanos: 0 };

describe("times on the way in", () => {
  it("refuses a Save whose expire_time JSON could not write, and stores nothing", async () => {
    const before = (await daemon.clients.memory.list({ project: "times" })).memories.length;
    expect(await refusalCode(daemon.clients.memory.save({ content: "expires after the year 9999", project: "times", expireTime: PAST_9999 }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(daemon.clients.memory.save({ content: "nanos out of range", project: "times", reviewTime: { seconds: 2_000_000_000n, nanos: 1_000_000_000 } }))).toBe(Code.InvalidArgument);
    expect((await daemon.clients.memory.list({ project: "times" })).memories.length).toBe(before);
  });

  it("keeps a time given to the sub-millisecond at the end of 9999 readable, as JSON too", async () => {
    const res = await rawRequest({
      socketPath: daemon.socketPath,
      path: "/memd.v1.MemoryService/Save",
      body: JSON.stringify({ content: "the last representable millisecond", project: "times-edge", expireTime: "9999-12-31T23:59:59.9995Z" }),
    });
    expect(res.status).toBe(200);
    const list = await rawRequest({ socketPath: daemon.socketPath, path: "/memd.v1.MemoryService/List", body: JSON.stringify({ project: "times-edge" }) });
    expect(list.status).toBe(200);
    expect(list.body).toContain('"expireTime":"9999-12-31T23:59:59.999Z"');
    const exported = await runCli(daemon.home, ["export", "-o", "-"]);
    expect(exported.code).toBe(0);
  });

  it("refuses an Update with such a review_time and leaves the memory as it was", async () => {
    const saved = await daemon.clients.memory.save({ content: "a rule to review", project: "times", kind: MemoryKind.RULE });
    const id = saved.memory?.id as string;
    expect(await refusalCode(daemon.clients.memory.update({ id, reviewTime: PAST_9999 }))).toBe(Code.InvalidArgument);
    expect((await daemon.clients.memory.get({ id })).memory?.reviewTime).toEqual(saved.memory?.reviewTime);
  });

  it("refuses an Import with such a create_time and creates nothing of the batch", async () => {
    const memory = { id: "01JBX0000000000000000000T1", content: "imported from the future", project: "times-import", createTime: PAST_9999, updateTime: PAST_9999 };
    expect(await refusalCode(daemon.clients.admin.import({ memories: [memory] }))).toBe(Code.InvalidArgument);
    expect((await daemon.clients.memory.list({ project: "times-import" })).memories).toEqual([]);
  });
});
