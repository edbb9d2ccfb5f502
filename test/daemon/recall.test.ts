import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind } from "../../gen/memd/v1/memory_pb.js";
import { removeDaemon, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

let daemon: TestDaemon;
const ids: Record<string, string> = {};

beforeAll(async () => {
  daemon = await spawnDaemon();
  const save = async (name: string, content: string, concepts: string[]) => {
    ids[name] = (await daemon.clients.memory.save({ content, project: "shop", concepts })).memory?.id ?? "";
  };
  await save("retry", "The webhook worker retries Stripe events with exponential backoff. It gives up after 8 tries.", ["webhooks", "stripe"]);
  await save("dedupe", "Stripe events are deduplicated by event id in the processed_events table.", ["stripe", "idempotency"]);
  await save("queue", "Webhook events go through the SQS queue shop-webhooks before the worker sees them.", ["webhooks", "sqs"]);
  await save("css", "Buttons use the design-system primary colour.", ["design"]);
});
afterAll(() => removeDaemon(daemon));

async function accessCount(id: string): Promise<bigint> {
  return (await daemon.clients.memory.get({ id })).memory?.accessCount ?? -1n;
}

describe("Recall", () => {
  it("answers depth 1 with one-line summaries only, and records no access", async () => {
    const res = await daemon.clients.memory.recall({ query: "webhook worker retries", project: "shop" });
    expect(res.depth).toBe(1);
    expect(res.memories[0]).toMatchObject({ id: ids.retry, summary: "The webhook worker retries Stripe events with exponential backoff." });
    expect(res.memories[0]?.memory).toBeUndefined();
    expect(await accessCount(ids.retry ?? "")).toBe(0n);
  });

  it("returns full memories at depth 2 for chosen ids and counts them as accessed", async () => {
    const res = await daemon.clients.memory.recall({ depth: 2, ids: [ids.dedupe ?? ""], project: "shop" });
    expect(res.memories.map((m) => m.memory?.content)).toEqual(["Stripe events are deduplicated by event id in the processed_events table."]);
    expect(await accessCount(ids.dedupe ?? "")).toBe(1n);
    const again = await daemon.clients.memory.get({ id: ids.dedupe ?? "" });
    expect(again.memory?.lastAccessTime).toBeDefined();
  });

  it("adds related memories at depth 3 and marks them as associated", async () => {
    const res = await daemon.clients.memory.recall({ query: "exponential backoff", project: "shop", depth: 3, limit: 1 });
    expect(res.memories[0]).toMatchObject({ id: ids.retry, associated: false });
    const associated = res.memories.filter((m) => m.associated).map((m) => m.id);
    expect(associated).toEqual(expect.arrayContaining([ids.dedupe, ids.queue]));
    expect(associated).not.toContain(ids.css);
  });

  it("respects the token budget", async () => {
    const all = await daemon.clients.memory.recall({ query: "stripe webhook events", project: "shop", depth: 2, limit: 10 });
    const tight = await daemon.clients.memory.recall({ query: "stripe webhook events", project: "shop", depth: 2, limit: 10, maxTokens: 40 });
    expect(all.memories.length).toBeGreaterThan(1);
    expect(tight.tokens).toBeLessThanOrEqual(40);
    expect(tight.memories.length).toBeLessThan(all.memories.length);
    expect(tight.truncated).toBe(true);
  });

  it.each([
    ["a depth of 4", { query: "x", depth: 4 }, /depth must be 1, 2 or 3/],
    ["a negative budget", { query: "x", maxTokens: -5 }, /max_tokens must be 0/],
    ["an empty query without ids", { query: "   " }, /query is empty/],
    ["a 100 KiB query", { query: "word ".repeat(20_000) }, /^query is 100000 bytes; at most 16384 are accepted/],
    ["a limit of 500", { query: "x", limit: 500 }, /limit must be between 1 and 50/],
  ])("rejects %s with invalid_argument", async (_name, req, message) => {
    const error = await daemon.clients.memory.recall(req).catch((e: unknown) => ConnectError.from(e));
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.InvalidArgument);
    expect((error as ConnectError).rawMessage).toMatch(message);
  });

  it("answers an unknown id with not_found", async () => {
    const error = await daemon.clients.memory.recall({ depth: 2, ids: ["01ARZ3NDEKTSV4RRFFQ69G5FAV"] }).catch((e: unknown) => ConnectError.from(e));
    expect((error as ConnectError).code).toBe(Code.NotFound);
  });

  it("is available as memctl recall", async () => {
    const out = await runCli(daemon.home, ["recall", "webhook", "worker", "retries", "-p", "shop", "--depth", "2", "-n", "1"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(ids.retry);
    expect(out.stdout).toContain("exponential backoff");
  });
});

describe("Recall filtered by kind", () => {
  it("answers when the graph finds a memory of another kind beside one of the kind asked for in its session", async () => {
    const { memory } = daemon.clients;
    await memory.save({ content: "We keep the connection pool settings in db/pool.yaml.", project: "kinds", kind: MemoryKind.DECISION, sessionId: "kinds-session" });
    const fact = await memory.save({ content: "The pool size in db/pool.yaml is 20 on staging.", project: "kinds", kind: MemoryKind.FACT, sessionId: "kinds-session" });
    const res = await memory.recall({ query: "db/pool.yaml", project: "kinds", kinds: [MemoryKind.FACT] });
    expect(res.memories.map((m) => m.id)).toEqual([fact.memory?.id]);
  });
});
