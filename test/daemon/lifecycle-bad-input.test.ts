import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { MemoryKind, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { DAEMON_BIN, makeHome, removeDaemon, runProcess, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { refusal } from "../helpers/refusal.js";

const DAY_MS = 24 * 3600 * 1000;
let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await spawnDaemon();
});
afterAll(() => removeDaemon(daemon));


/** Everything a client can see: every memory (archived and superseded too), its history, and the stats. */
async function snapshot(): Promise<unknown> {
  const memories = [];
  for await (const res of daemon.clients.admin.export({})) memories.push(res.memory);
  const histories = [];
  for (const m of memories) histories.push((await daemon.clients.memory.history({ id: m?.id ?? "" })).events);
  const { ledger, byStatus, byKind, byProject, total } = await daemon.clients.admin.stats({});
  return { memories, histories, ledger, byStatus, byKind, byProject, total };
}

describe("corrections of claims that are no longer current", () => {
  it("refuses to supersede an unknown, a superseded or an archived memory, names the claim to correct instead, and changes nothing", async () => {
    const { memory: old } = await daemon.clients.memory.save({ content: "Queues run on RabbitMQ", project: "bad-input" });
    const { memory: between } = await daemon.clients.memory.supersede({ id: old?.id ?? "", content: "Queues run on SQS", reason: "moved to AWS" });
    const { memory: current } = await daemon.clients.memory.supersede({ id: between?.id ?? "", content: "Queues run on SQS FIFO", reason: "ordering" });
    const { memory: gone } = await daemon.clients.memory.save({ content: "The old cron host is cron-1", project: "bad-input" });
    await daemon.clients.memory.archive({ id: gone?.id ?? "", reason: "host retired" });
    const before = await snapshot();

    const unknown = await refusal(daemon.clients.memory.supersede({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV", content: "Queues run on Kafka" }));
    expect(unknown.code).toBe(Code.NotFound);
    const superseded = await refusal(daemon.clients.memory.supersede({ id: old?.id ?? "", content: "Queues run on Kafka" }));
    expect(superseded.code).toBe(Code.FailedPrecondition);
    // Two corrections on, the refusal names the claim that holds now, not the next link.
    expect(superseded.rawMessage).toContain(`the current claim is ${current?.id}`);
    const archived = await refusal(daemon.clients.memory.supersede({ id: gone?.id ?? "", content: "The old cron host is cron-2" }));
    expect(archived.code).toBe(Code.FailedPrecondition);
    expect(archived.rawMessage).toContain("archived");

    expect(await snapshot()).toEqual(before);
  });
});

describe("the promotion gate", () => {
  it("refuses to promote a memory that is not staged (active or archived) and changes nothing", async () => {
    const { memory: stated } = await daemon.clients.memory.save({ content: "Feature flags live in LaunchDarkly", project: "bad-input", provenance: Provenance.HUMAN });
    const { memory: rejected } = await daemon.clients.memory.save({ content: "Seems to like long functions", project: "bad-input", provenance: Provenance.DISTILLED });
    await daemon.clients.memory.reject({ id: rejected?.id ?? "", reason: "wrong guess" });
    const before = await snapshot();

    const active = await refusal(daemon.clients.memory.promote({ id: stated?.id ?? "" }));
    expect(active.code).toBe(Code.FailedPrecondition);
    expect(active.rawMessage).toContain("not staged");
    const archived = await refusal(daemon.clients.memory.promote({ id: rejected?.id ?? "" }));
    expect(archived.code).toBe(Code.FailedPrecondition);
    const unknown = await refusal(daemon.clients.memory.promote({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }));
    expect(unknown.code).toBe(Code.NotFound);

    expect(await snapshot()).toEqual(before);
  });
});

describe("review dates", () => {
  it("refuses a review date in the past on Save and Update, says so, and changes nothing", async () => {
    const { memory: rule } = await daemon.clients.memory.save({
      content: "Every migration gets a down script",
      project: "bad-input",
      kind: MemoryKind.RULE,
      reviewTime: timestampFromMs(Date.now() + 90 * DAY_MS),
    });
    const before = await snapshot();
    const yesterday = timestampFromMs(Date.now() - DAY_MS);

    const saved = await refusal(daemon.clients.memory.save({ content: "Review this rule", project: "bad-input", kind: MemoryKind.RULE, reviewTime: yesterday }));
    expect(saved.code).toBe(Code.InvalidArgument);
    expect(saved.rawMessage).toMatch(/review_time .* is in the past/);
    const updated = await refusal(daemon.clients.memory.update({ id: rule?.id ?? "", reviewTime: yesterday }));
    expect(updated.code).toBe(Code.InvalidArgument);

    expect(await snapshot()).toEqual(before);
  });
});

describe("half-lives in the settings", () => {
  /** Every file under the state directory and a hash of its bytes. */
  function filesOf(home: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const entry of fs.readdirSync(home, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      out[path.relative(home, file)] = createHash("sha256").update(fs.readFileSync(file)).digest("hex");
    }
    return out;
  }

  it.each(["episode=0d", "trace=-12h"])("refuses to start with MEMD_HALF_LIVES=%s, says why, and leaves the database as it was", async (setting) => {
    const home = makeHome();
    try {
      const first = await spawnDaemon({ home });
      const { memory } = await first.clients.memory.save({ content: "Staging runs in eu-west-1", project: "bad-input" });
      expect(await first.stop()).toBe(0);
      const before = filesOf(home);
      expect(Object.keys(before)).toContain("memd.db");

      const refused = await runProcess(DAEMON_BIN, [], { env: { MEMD_HOME: home, MEMD_EMBEDDER: "none", MEMD_HALF_LIVES: setting } });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("MEMD_HALF_LIVES");
      expect(refused.stderr).toContain(`half-life for "${setting.split("=")[0]}" must be a positive number`);
      expect(filesOf(home)).toEqual(before);

      const again = await spawnDaemon({ home });
      expect((await again.clients.memory.get({ id: memory?.id ?? "" })).memory?.content).toBe("Staging runs in eu-west-1");
      await again.stop();
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
