import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import { removeDaemon, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

let daemon: TestDaemon;
const ids: Record<string, string> = {};

beforeAll(async () => {
  daemon = await spawnDaemon();
  const save = async (name: string, content: string, project: string, extra: Record<string, unknown> = {}) => {
    ids[name] = (await daemon.clients.memory.save({ content, project, ...extra })).memory?.id ?? "";
  };
  await save("incident", "PAY-1423: webhook worker double-charged customers after Stripe retried", "ledger", { kind: MemoryKind.EPISODE, concepts: ["stripe", "webhooks"] });
  await save("stripeConfig", "Stripe idempotency keys are derived from the order id", "ledger", { concepts: ["stripe"] });
  await save("waf", "The edge WAF rate-limits every public endpoint to 2000 requests per five minutes", "infra", { concepts: ["waf"] });
  await save("old", "Deploys run from Jenkins", "ledger");
  await save("guess", "The user probably prefers tabs over spaces", "ledger", { kind: MemoryKind.PREFERENCE, provenance: 5 });
});
afterAll(() => removeDaemon(daemon));

describe("hybrid search", () => {
  it("reaches a memory one hop out through a shared entity, and says so when asked to explain", async () => {
    const res = await daemon.clients.memory.search({ query: "PAY-1423", project: "ledger", mode: SearchMode.HYBRID, explain: true });
    const found = res.results.map((r) => r.memory?.id);
    expect(found[0]).toBe(ids.incident);
    const hop = res.results.find((r) => r.memory?.id === ids.stripeConfig);
    expect(hop?.explanation?.keywordRank).toBe(0);
    expect(hop?.explanation?.graphPath).toBe("stripe");
    expect(res.results[0]?.explanation).toMatchObject({ keywordRank: 1, graphPath: "pay-1423" });
    expect(res.results[0]?.explanation?.decay).toBeGreaterThan(0.99);
  });

  it("looks into other projects when the answer lives there", async () => {
    const res = await daemon.clients.memory.search({ query: "is the public endpoint behind a WAF rate limit", project: "ledger", mode: SearchMode.HYBRID });
    expect(res.results[0]?.memory?.id).toBe(ids.waf);
  });

  it("finds what was noted in the time a query names, even when no word matches", async () => {
    const daysAgo = (days: number) => timestampFromMs(Date.now() - days * 24 * 3600 * 1000);
    const note = { project: "ledger", kind: MemoryKind.TASK, importance: 3 };
    await daemon.clients.admin.import({
      memories: [
        { ...note, id: "01JZ0000000000000000000010", content: "TODO: wire the refund export to S3", createTime: daysAgo(2), updateTime: daysAgo(2) },
        { ...note, id: "01JZ0000000000000000000011", content: "TODO: rotate the sandbox API keys", createTime: daysAgo(60), updateTime: daysAgo(60) },
      ],
    });
    const res = await daemon.clients.memory.search({ query: "what was I doing in the last few days?", project: "ledger", mode: SearchMode.HYBRID });
    const found = res.results.map((r) => r.memory?.id);
    expect(found).toContain("01JZ0000000000000000000010");
    expect(found).not.toContain("01JZ0000000000000000000011");
  });

  it("never returns staged or archived memories unless asked", async () => {
    await daemon.clients.memory.archive({ id: ids.old ?? "", reason: "moved to Argo" });
    const res = await daemon.clients.memory.search({ query: "deploys Jenkins tabs spaces", project: "ledger", mode: SearchMode.HYBRID });
    const found = res.results.map((r) => r.memory?.id);
    expect(found).not.toContain(ids.old);
    expect(found).not.toContain(ids.guess);
    const staged = await daemon.clients.memory.search({ query: "tabs spaces", project: "ledger", mode: SearchMode.HYBRID, statuses: [MemoryStatus.STAGED] });
    expect(staged.results.map((r) => r.memory?.id)).toEqual([ids.guess]);
  });

  it("is what memctl search uses by default, with --explain printing the breakdown", async () => {
    const out = await runCli(daemon.home, ["search", "PAY-1423", "-p", "ledger", "--explain"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(ids.incident);
    expect(out.stdout).toMatch(/why: keyword #1 \(bm25 [\d.]+\), vector -, graph pay-1423/);
    expect(out.stdout).toMatch(/relevance [\d.]+ x decay [\d.]+ x frequency 1\.00 x confidence [\d.]+/);
  });
});
