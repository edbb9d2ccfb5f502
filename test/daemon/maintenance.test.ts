import fs from "node:fs";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryKind, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { startFakeOllama } from "../embed/fake-ollama.js";
import { runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { refusalCode } from "../helpers/refusal.js";

const DAY = 86_400_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function daemonWith(env: Record<string, string> = {}): Promise<TestDaemon> {
  const d = await spawnDaemon({ env });
  cleanups.push(async () => {
    if (d.process.exitCode === null) await d.stop();
    fs.rmSync(d.home, { recursive: true, force: true });
  });
  return d;
}

const ULIDS = ["01HZ0000000000000000000001", "01HZ0000000000000000000002", "01HZ0000000000000000000003", "01HZ0000000000000000000004", "01HZ0000000000000000000005"];

function old(id: string, content: string, daysAgo: number, extra: Record<string, unknown> = {}) {
  const at = timestampFromMs(Date.now() - daysAgo * DAY);
  return { id, content, kind: MemoryKind.TRACE, project: "ops", importance: 3, confidence: 0.5, status: MemoryStatus.ACTIVE, createTime: at, updateTime: at, ...extra };
}

describe("GC (Clean)", () => {
  it("archives decayed and expired memories, spares pinned ones, never deletes, and a second run changes nothing", async () => {
    const d = await daemonWith();
    await d.clients.admin.import({
      memories: [
        old(ULIDS[0] as string, "npm test failed once on a flaky port", 30),
        old(ULIDS[1] as string, "pinned trace that must stay", 30, { pinned: true }),
        old(ULIDS[2] as string, "temporary staging URL", 1, { kind: MemoryKind.FACT, expireTime: timestampFromMs(Date.now() - DAY) }),
        old(ULIDS[3] as string, "fresh trace from today", 0),
      ],
    });
    expect((await d.clients.admin.stats({})).lastMaintenance).toBeUndefined();
    const dry = await d.clients.admin.clean({ dryRun: true });
    // A dry run is no run.
    expect((await d.clients.admin.stats({})).lastMaintenance).toBeUndefined();
    expect(dry.archived.map((a) => [a.memoryId, a.reason]).sort()).toEqual([
      [ULIDS[0], "decayed"],
      [ULIDS[2], "expired"],
    ]);
    expect((await d.clients.memory.get({ id: ULIDS[0] as string })).memory?.status).toBe(MemoryStatus.ACTIVE);

    const real = await d.clients.admin.clean({});
    expect(real.archived).toHaveLength(2);
    expect((await d.clients.admin.stats({})).lastMaintenance).toMatchObject({ trigger: "clean", archived: 2, consolidated: 0, error: "" });
    expect((await d.clients.memory.get({ id: ULIDS[0] as string })).memory).toMatchObject({ status: MemoryStatus.ARCHIVED, archiveReason: "decayed" });
    expect((await d.clients.memory.get({ id: ULIDS[1] as string })).memory?.status).toBe(MemoryStatus.ACTIVE);
    expect((await d.clients.admin.stats({})).total).toBe(4n);

    const again = await runCli(d.home, ["clean"]);
    expect(again.stdout).toBe("archived 0 memories\n");
    const ledger = Object.fromEntries((await d.clients.admin.stats({})).ledger.map((c) => [c.key, Number(c.count)]));
    expect(ledger).toMatchObject({ active: 2, archived: 2, decayed: 1, expired: 1, staged: 0, review: 0 });
  });
});

describe("rules", () => {
  it("flags a rule for review once its review date passes, instead of letting it decay away", async () => {
    const d = await daemonWith();
    await d.clients.admin.import({ memories: [old(ULIDS[4] as string, "Never push to main directly", 400, { kind: MemoryKind.RULE })] });
    expect((await d.clients.admin.clean({})).archived).toEqual([]);
    const ledger = Object.fromEntries((await d.clients.admin.stats({})).ledger.map((c) => [c.key, Number(c.count)]));
    expect(ledger.review).toBe(1);
    expect((await d.clients.memory.sync({ project: "ops" })).reviewDue.map((m) => m.id)).toEqual([ULIDS[4]]);
    expect((await runCli(d.home, ["review"])).stdout).toContain("Never push to main directly");
  });
});

describe("purge", () => {
  it("deletes only archived memories, only with the exact confirmation, and backs up first", async () => {
    const d = await daemonWith();
    await d.clients.admin.import({ memories: [old(ULIDS[0] as string, "kept", 1), old(ULIDS[1] as string, "gone", 1, { status: MemoryStatus.ARCHIVED })] });
    const refused = await runCli(d.home, ["purge", "--confirm", "yes"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('confirm with exactly "delete archived memories"');
    expect((await d.clients.admin.stats({})).total).toBe(2n);
    const res = await d.clients.admin.purge({ confirm: "delete archived memories" });
    expect(res.deleted).toBe(1n);
    expect(fs.existsSync(res.backupPath)).toBe(true);
    expect((await d.clients.admin.stats({})).total).toBe(1n);
    expect((await d.clients.memory.get({ id: ULIDS[0] as string })).memory?.content).toBe("kept");
  });
});

describe("consolidation (against a local server speaking the Ollama API)", () => {
  it("merges aging similar memories into one, archives the originals with a link, and is idempotent", async () => {
    const ollama = await startFakeOllama();
    cleanups.push(() => ollama.close());
    const d = await daemonWith({ MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url });
    const content = "The nightly backup job writes to the s3 bucket ops-backups.";
    await d.clients.admin.import({
      memories: [
        old(ULIDS[0] as string, content, 200, { kind: MemoryKind.EPISODE, concepts: ["backup"], tags: ["ops"] }),
        old(ULIDS[1] as string, `${content} Daily.`, 190, { kind: MemoryKind.EPISODE, concepts: ["backup"], tags: ["s3"] }),
        old(ULIDS[2] as string, "Unrelated: the office coffee machine is on floor 3.", 195, { kind: MemoryKind.EPISODE }),
      ],
    });
    for (let i = 0; i < 100; i++) {
      if (Number((await d.clients.admin.stats({})).embedder?.queueDepth ?? 1) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const res = await d.clients.admin.consolidate({});
    expect(res.consolidations).toHaveLength(1);
    const merged = res.consolidations[0];
    expect(merged?.originalIds.sort()).toEqual([ULIDS[0], ULIDS[1]]);
    expect(merged?.memory?.content).toBe(`${content}\nDaily.`);
    expect(merged?.memory).toMatchObject({ concepts: ["backup"], tags: ["ops", "s3"] });
    const original = await d.clients.memory.get({ id: ULIDS[0] as string });
    expect(original.memory).toMatchObject({ status: MemoryStatus.ARCHIVED, supersededBy: merged?.memory?.id });
    expect((await d.clients.admin.consolidate({})).consolidations).toEqual([]);
  });
});

describe("DescribeDecay", () => {
  it("draws each kind's fading with the daemon's half-lives, and refuses days and confidence out of range", async () => {
    const d = await daemonWith();
    const res = await d.clients.admin.describeDecay({ days: 14, confidence: 0 });
    expect(res.curves).toHaveLength(10);
    const episode = res.curves.find((c) => c.kind === MemoryKind.EPISODE);
    expect(episode?.halfLifeDays).toBe(7);
    expect(episode?.weights).toHaveLength(15);
    expect(episode?.weights[7]).toBeCloseTo(0.5);
    expect((await d.clients.admin.describeDecay({})).confidence).toBe(0.5);
    expect(await refusalCode(d.clients.admin.describeDecay({ days: 4000 }))).toBe(Code.InvalidArgument);
    expect(await refusalCode(d.clients.admin.describeDecay({ confidence: 1.5 }))).toBe(Code.InvalidArgument);
  });
});

describe("Timeline", () => {
  it("counts the day's saves, corrections and archivals, with every day of the range present", async () => {
    const d = await daemonWith();
    const first = (await d.clients.memory.save({ content: "Deploys go out on Tuesdays", project: "ops" })).memory?.id ?? "";
    const second = (await d.clients.memory.save({ content: "The staging box is called lotus", project: "ops" })).memory?.id ?? "";
    await d.clients.memory.archive({ id: second, reason: "renamed" });
    await d.clients.memory.supersede({ id: first, content: "Deploys go out on Wednesdays" });
    await d.clients.memory.save({ content: "Another project's note", project: "web" });
    const week = await d.clients.admin.timeline({ days: 7, project: "ops" });
    expect(week.days).toHaveLength(7);
    expect(week.days.at(-1)?.day).toBe(new Date().toISOString().slice(0, 10));
    const today = Object.fromEntries((week.days.at(-1)?.counts ?? []).map((c) => [c.key, Number(c.count)]));
    expect(today).toEqual({ created: 3, archived: 1, superseded: 1 });
    expect(week.days.slice(0, -1).every((day) => day.counts.length === 0)).toBe(true);
    expect((await d.clients.admin.timeline({})).days).toHaveLength(30);
    expect(await refusalCode(d.clients.admin.timeline({ days: 4000 }))).toBe(Code.InvalidArgument);
  });
});
