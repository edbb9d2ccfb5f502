import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LocalServer } from "../../../test/embed/local-http-server.js";
import { chatRequests, startFakeOllamaChat } from "../../../test/llm/fake-chat.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { openStore } from "../store/open-store.js";
import { ChatError, type ChatMessage } from "./chat-model.js";
import { createOllamaChat } from "./ollama-chat.js";
import { callEstimate, type CappedChatModel, utcDay, withSpendCap } from "./spend-cap.js";

const DAY_START = Date.UTC(2026, 9, 14);
let dir: string;
let store: SqliteStore;
let clock: number;
const servers: LocalServer[] = [];
const models: CappedChatModel[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-spend-"));
  clock = DAY_START + 10 * 3_600_000;
  store = open();
});
afterEach(async () => {
  await Promise.all(models.splice(0).map((m) => m.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(): SqliteStore {
  return openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now: () => clock });
}

async function capped(dailyTokens: number, behaviour: Parameters<typeof startFakeOllamaChat>[0] = { behaviour: () => "{}" }) {
  const server = await startFakeOllamaChat(behaviour);
  servers.push(server);
  const model = withSpendCap(createOllamaChat({ host: server.url, model: "llama3.2", timeoutMs: 200 }), { ledger: store.llmSpend, now: () => clock, dailyTokens });
  models.push(model);
  return { server, model };
}

// 400 characters: 100 tokens of prompt at four characters a token.
const prompt: ChatMessage[] = [{ role: "user", content: "x".repeat(400) }];

async function failure(promise: Promise<unknown>): Promise<ChatError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ChatError);
  return error as ChatError;
}

describe("the daily spend cap (against a local server speaking the Ollama API)", () => {
  it("prices a call at its prompt (four characters a token) plus its completion limit", () => {
    expect(callEstimate(prompt, 50)).toBe(150);
    expect(utcDay(Date.UTC(2026, 9, 14, 23, 59))).toBe("2026-10-14");
  });

  it("records the tokens the provider reports, per UTC day", async () => {
    const { model } = await capped(10_000, { behaviour: () => "{}", usage: { input: 120, output: 30 } });
    await model.complete(prompt, { maxTokens: 50, json: true });
    await model.complete(prompt, { maxTokens: 50, json: true });
    expect(store.llmSpend.day("2026-10-14")).toEqual({ day: "2026-10-14", inputTokens: 240, outputTokens: 60, calls: 2 });
    expect(model.spendToday()).toEqual({ day: "2026-10-14", usedTokens: 300, calls: 2, capTokens: 10_000 });
  });

  it("does not make a call that could pass the cap, and says why", async () => {
    const { server, model } = await capped(400, { behaviour: () => "{}", usage: { input: 120, output: 30 } });
    await model.complete(prompt, { maxTokens: 50, json: true });
    // 150 used; the next call may take 100 + 200 = 300, and 450 > 400.
    const error = await failure(model.complete(prompt, { maxTokens: 200, json: true }));
    expect(error.reason).toBe("over-cap");
    expect(error.message).toMatch(/150 of 400 tokens used today/);
    expect(chatRequests(server)).toHaveLength(1);
  });

  it("counts calls in flight, so that two at once cannot both take the last of the budget", async () => {
    const { server, model } = await capped(500, { behaviour: "hang" });
    const first = failure(model.complete(prompt, { maxTokens: 200, json: true }));
    const second = await failure(model.complete(prompt, { maxTokens: 200, json: true }));
    expect(second.reason).toBe("over-cap");
    expect(second.message).toMatch(/300 reserved by calls in flight/);
    expect((await first).reason).toBe("timeout");
    expect(chatRequests(server)).toHaveLength(1);
  });

  it("charges a call that timed out its worst case, and one refused with an error status nothing", async () => {
    const hanging = await capped(10_000, { behaviour: "hang" });
    await failure(hanging.model.complete(prompt, { maxTokens: 200, json: true }));
    expect(store.llmSpend.day("2026-10-14")).toMatchObject({ inputTokens: 100, outputTokens: 200, calls: 1 });
    const failing = await capped(10_000, { behaviour: 500 });
    await failure(failing.model.complete(prompt, { maxTokens: 200, json: true }));
    expect(store.llmSpend.day("2026-10-14")).toMatchObject({ inputTokens: 100, outputTokens: 200, calls: 1 });
  });

  it("keeps today's usage across a restart, so reopening the database does not reset the cap", async () => {
    const before = await capped(400, { behaviour: () => "{}", usage: { input: 300, output: 50 } });
    await before.model.complete(prompt, { maxTokens: 20, json: true });
    store.close();
    store = open();
    const after = await capped(400);
    expect(after.model.spendToday().usedTokens).toBe(350);
    expect((await failure(after.model.complete(prompt, { maxTokens: 20, json: true }))).reason).toBe("over-cap");
    expect(chatRequests(after.server)).toHaveLength(0);
  });

  it("starts afresh on a new UTC day", async () => {
    const { server, model } = await capped(400, { behaviour: () => "{}", usage: { input: 300, output: 50 } });
    await model.complete(prompt, { maxTokens: 20, json: true });
    expect((await failure(model.complete(prompt, { maxTokens: 20, json: true }))).reason).toBe("over-cap");
    clock = DAY_START + 24 * 3_600_000;
    await model.complete(prompt, { maxTokens: 20, json: true });
    expect(chatRequests(server)).toHaveLength(2);
    expect(model.spendToday()).toEqual({ day: "2026-10-15", usedTokens: 350, calls: 1, capTokens: 400 });
    expect(store.llmSpend.day("2026-10-14").calls).toBe(1);
  });
});
