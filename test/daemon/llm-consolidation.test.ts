import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterEach, describe, expect, it } from "vitest";
import type { MemdClients } from "../../clients/transport/transport.js";
import { MemoryKind, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import type { LocalServer } from "../embed/local-http-server.js";
import { runCli } from "../helpers/daemon.js";
import { fakeClock, startInProcessDaemon } from "../helpers/in-process-daemon.js";
import { chatRequests, type FakeChatBehaviour, startFakeOllamaChat } from "../llm/fake-chat.js";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 9, 14, 12);
const IDS = ["01HZ0000000000000000000001", "01HZ0000000000000000000002", "01HZ0000000000000000000003"];
const CONTENT = "The nightly backup job writes to the s3 bucket ops-backups.";
const SUMMARY = "The nightly backup job writes daily to the s3 bucket ops-backups.";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A daemon whose embedder and chat model are one fake Ollama server, holding two aging episodes
 * that say nearly the same thing (one cluster) and an unrelated one, all embedded.
 */
async function daemonWithCluster(
  behaviour: FakeChatBehaviour,
  env: Record<string, string> = {},
): Promise<{ clients: MemdClients; ollama: LocalServer; home: string }> {
  const ollama = await startFakeOllamaChat({ behaviour, embeddings: true, usage: { input: 150, output: 30 } });
  cleanups.push(() => ollama.close());
  const daemon = await startInProcessDaemon({
    clock: fakeClock(NOW),
    env: { MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url, MEMD_LLM: "ollama", ...env },
  });
  cleanups.push(() => daemon.close());
  const old = (id: string, content: string, daysAgo: number, extra: Record<string, unknown> = {}) => {
    const at = timestampFromMs(NOW - daysAgo * DAY);
    return { id, content, kind: MemoryKind.EPISODE, project: "ops", importance: 3, confidence: 0.5, status: MemoryStatus.ACTIVE, createTime: at, updateTime: at, ...extra };
  };
  await daemon.clients.admin.import({
    memories: [
      old(IDS[0] as string, CONTENT, 200, { concepts: ["backup"] }),
      old(IDS[1] as string, `${CONTENT} Daily.`, 190, { concepts: ["backup"], tags: ["s3"] }),
      old(IDS[2] as string, "Unrelated: the office coffee machine is on floor 3.", 195),
    ],
  });
  for (let i = 0; i < 200; i++) {
    if (Number((await daemon.clients.admin.stats({})).embedder?.queueDepth ?? 1) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { clients: daemon.clients, ollama, home: daemon.home };
}

async function createdDetail(clients: MemdClients, id: string): Promise<string> {
  const history = await clients.memory.history({ id });
  return history.events.find((e) => e.memoryId === id && e.action === "created")?.detail ?? "";
}

describe("consolidation with a language model (against a local server speaking the Ollama API)", () => {
  it("stores the model's summary as the consolidated memory and archives the originals with a link to it", async () => {
    const { clients, ollama, home } = await daemonWithCluster(() => JSON.stringify({ content: SUMMARY, concepts: ["nightly-backup"] }));
    const [consolidation, ...rest] = (await clients.admin.consolidate({})).consolidations;
    expect(rest).toEqual([]);
    expect(consolidation?.originalIds.sort()).toEqual([IDS[0], IDS[1]]);
    const merged = consolidation?.memory;
    expect(merged).toMatchObject({ content: SUMMARY, concepts: ["backup", "nightly-backup"], tags: ["s3"], status: MemoryStatus.ACTIVE });
    for (const id of [IDS[0], IDS[1]] as string[]) {
      expect((await clients.memory.get({ id })).memory).toMatchObject({ status: MemoryStatus.ARCHIVED, archiveReason: "consolidated", supersededBy: merged?.id });
    }
    expect(await createdDetail(clients, merged?.id as string)).toBe(`consolidates ${IDS[0]}, ${IDS[1]} (summarised by ollama:llama3.2)`);

    // The model saw both members, oldest first, and was asked for JSON.
    const [request] = chatRequests(ollama);
    const body = request?.body as { model: string; format: string; messages: { content: string }[] };
    expect(body).toMatchObject({ model: "llama3.2", format: "json", stream: false });
    const prompt = body.messages.map((m) => m.content).join("\n");
    expect(prompt.indexOf(`"${CONTENT}"`)).toBeGreaterThan(-1);
    expect(prompt.indexOf(`"${CONTENT}"`)).toBeLessThan(prompt.indexOf(`"${CONTENT} Daily."`));
    expect(chatRequests(ollama)).toHaveLength(1);

    const stats = await clients.admin.stats({});
    expect(stats.llm).toMatchObject({ provider: "ollama", model: "llama3.2", day: "2026-10-14", tokensToday: 180n, callsToday: 1n, dailyCapTokens: 200_000n });
    const shown = await runCli(home, ["stats"]);
    expect(shown.stdout).toContain("language model ollama:llama3.2: 180 of 200000 tokens today (1 calls)");
  });

  it.each<[string, FakeChatBehaviour]>([
    ["answers 500", 500],
    ["answers with a body that is not JSON", "garbage"],
    ["writes a summary that drops an identifier", () => JSON.stringify({ content: "The nightly backup job writes to a bucket." })],
    ["writes something that is not JSON", () => "Sure! Here is the merged note: backups go to s3."],
  ])("falls back to the deterministic merge, losing nothing, when the model %s", async (_name, behaviour) => {
    const { clients, ollama } = await daemonWithCluster(behaviour);
    const [consolidation] = (await clients.admin.consolidate({})).consolidations;
    expect(chatRequests(ollama)).toHaveLength(1);
    expect(consolidation?.memory?.content).toBe(`${CONTENT}\nDaily.`);
    expect(consolidation?.originalIds.sort()).toEqual([IDS[0], IDS[1]]);
    expect((await clients.memory.get({ id: IDS[1] as string })).memory).toMatchObject({ status: MemoryStatus.ARCHIVED, supersededBy: consolidation?.memory?.id });
    expect(await createdDetail(clients, consolidation?.memory?.id as string)).toBe(`consolidates ${IDS[0]}, ${IDS[1]} (deterministic merge, ollama:llama3.2 failed)`);
  });

  it("never calls the model on a dry run", async () => {
    const { clients, ollama } = await daemonWithCluster(() => JSON.stringify({ content: SUMMARY }));
    const [planned] = (await clients.admin.consolidate({ dryRun: true })).consolidations;
    expect(planned?.memory?.content).toBe(`${CONTENT}\nDaily.`);
    expect(chatRequests(ollama)).toHaveLength(0);
    expect((await clients.memory.get({ id: IDS[0] as string })).memory?.status).toBe(MemoryStatus.ACTIVE);
  });

  it("merges deterministically without calling the model once the daily cap would be passed", async () => {
    const { clients, ollama } = await daemonWithCluster(() => JSON.stringify({ content: SUMMARY }), { MEMD_LLM_DAILY_TOKENS: "50" });
    const [consolidation] = (await clients.admin.consolidate({})).consolidations;
    expect(chatRequests(ollama)).toHaveLength(0);
    expect(consolidation?.memory?.content).toBe(`${CONTENT}\nDaily.`);
    expect((await clients.admin.stats({})).llm).toMatchObject({ tokensToday: 0n, callsToday: 0n, dailyCapTokens: 50n });
  });
});
