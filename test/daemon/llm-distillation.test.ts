import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMemdClients, createSocketTransport, type MemdClients } from "../../clients/transport/transport.js";
import { CaptureOutcome } from "../../gen/memd/v1/capture_service_pb.js";
import { type Memory, MemoryKind, MemoryStatus, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { loadConfig } from "../../daemon/src/config/config.js";
import { readEnv } from "../../daemon/src/config/env.js";
import { type RunningDaemon, startDaemon } from "../../daemon/src/daemon.js";
import { SECRET_SAMPLES } from "../../daemon/src/redact/secret-corpus.js";
import type { LocalServer } from "../embed/local-http-server.js";
import { makeHome, REPO_ROOT } from "../helpers/daemon.js";
import { type FakeClock, fakeClock } from "../helpers/in-process-daemon.js";
import { chatRequests, type FakeChatBehaviour, startFakeOpenAiChat } from "../llm/fake-chat.js";

const TRANSCRIPTS = path.join(REPO_ROOT, "test/fixtures/transcripts");
const EXPECTED = JSON.parse(fs.readFileSync(path.join(TRANSCRIPTS, "session-auth-refactor.expected.json"), "utf8")) as {
  secrets_must_not_be_stored: { value: string }[];
};
const NOW = Date.UTC(2026, 9, 14, 12);
const MODEL = "openai:gpt-4o-mini";
const [AWS_KEY] = EXPECTED.secrets_must_not_be_stored.map((s) => s.value);
/** Every secret value the tests know: the fixture's and the redaction corpus's. */
const SECRETS = [...EXPECTED.secrets_must_not_be_stored.map((s) => s.value), ...SECRET_SAMPLES.flatMap((s) => s.secrets.map((x) => x.value))];

/** What the fake model proposes: a repeat of a rule-based decision, a repeated preference, and three new items, one quoting a secret. */
const PROPOSALS = {
  memories: [
    { kind: "decision", content: "Go with jose, not jsonwebtoken: jsonwebtoken depends on Node's crypto module, while jose runs on Web Crypto.", line: 14 },
    { kind: "preference", content: "Always use pnpm in this repo, never npm or yarn.", line: 3 },
    { kind: "fact", content: `The old Jenkins AWS key ${AWS_KEY} was pasted in the chat and must be rotated.`, concepts: ["ci", "credentials"], line: 33 },
    { kind: "fact", content: "The refresh token migration migrations/0007_refresh_tokens.sql has not been run yet.", files: ["migrations/0007_refresh_tokens.sql"], line: 31 },
    { kind: "preference", content: "Prefer small pull requests with one change each.", line: 36 },
  ],
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Running {
  clients: MemdClients;
  daemon: RunningDaemon;
}

/** memd in this process on `home` with an OpenAI chat model at `openai`; the caller stops it (tests restart it on the same home). */
async function start(home: string, clock: FakeClock, openai: LocalServer, env: Record<string, string> = {}): Promise<Running> {
  const config = loadConfig(
    readEnv({
      HOME: home, MEMD_HOME: home, MEMD_EMBEDDER: "none", MEMD_LOG_LEVEL: "info",
      MEMD_LLM: "openai", OPENAI_API_KEY: "sk-test-key", MEMD_OPENAI_BASE_URL: openai.url, ...env,
    }),
  );
  const daemon = await startDaemon(config, { now: clock.now });
  return { daemon, clients: createMemdClients(createSocketTransport({ socketPath: config.socketPath, httpVersion: "2" })) };
}

async function setUp(behaviour: FakeChatBehaviour) {
  const openai = await startFakeOpenAiChat({ behaviour, usage: { input: 1000, output: 200 } });
  const home = makeHome();
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "acme-api-"));
  const transcript = path.join(workspace, "session.jsonl");
  fs.copyFileSync(path.join(TRANSCRIPTS, "session-auth-refactor.jsonl"), transcript);
  const clock = fakeClock(NOW);
  let running = await start(home, clock, openai);
  cleanups.push(async () => {
    await running.daemon.close();
    await openai.close();
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  });
  return {
    openai, home, workspace, transcript, clock,
    clients: () => running.clients,
    async restart() {
      await running.daemon.close();
      running = await start(home, clock, openai);
    },
    sweep: (sessionId: string) => running.clients.capture.captureTranscript({ transcriptPath: transcript, sessionId, cwd: workspace, trigger: "test", sourceAgent: "claude-code", wait: true }),
    memories: async (sessionId: string): Promise<Memory[]> =>
      (await running.clients.memory.list({ project: path.basename(workspace), sessionId, statuses: [MemoryStatus.ACTIVE, MemoryStatus.STAGED] })).memories,
  };
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe("transcript distillation (against a local server speaking the OpenAI API)", () => {
  it("stages the model's new memories after the rule-based ones, within the session's cap of five", async () => {
    const t = await setUp(() => JSON.stringify(PROPOSALS));
    const res = await t.sweep("llm-1");
    expect(chatRequests(t.openai)).toHaveLength(1);
    const memories = await t.memories("llm-1");
    const active = memories.filter((m) => m.status === MemoryStatus.ACTIVE);
    const staged = memories.filter((m) => m.status === MemoryStatus.STAGED);
    // The user's stated preferences stay the only active memories; the model's are inferences.
    expect(active.map((m) => m.kind)).toEqual([MemoryKind.PREFERENCE, MemoryKind.PREFERENCE, MemoryKind.PREFERENCE]);
    expect(staged).toHaveLength(5);
    const distilled = res.memories.filter((m) => m.reason === `distilled by ${MODEL}`);
    expect(distilled.map((m) => m.outcome)).toEqual([CaptureOutcome.CREATED]);
    expect(distilled[0]?.memory).toMatchObject({ kind: MemoryKind.FACT, status: MemoryStatus.STAGED, provenance: Provenance.DISTILLED });
    expect(distilled[0]?.line).toBe(33);
    // Of the five proposals two repeat what the rules found and two more found no room under the cap.
    expect(res.overLimit).toBe(2);
    const history = await t.clients().memory.history({ id: distilled[0]?.memory?.id as string });
    expect(history.events.find((e) => e.action === "created")?.detail).toBe(`transcript sweep, distilled by ${MODEL}`);

    // A second sweep of the session adds nothing: the cap holds across sweeps.
    await t.sweep("llm-1");
    expect(await t.memories("llm-1")).toHaveLength(8);
  });

  it("never sends a secret to the model and never stores one the model wrote", async () => {
    const t = await setUp(() => JSON.stringify(PROPOSALS));
    // Besides line 33's paste, every secret of the redaction corpus, said in a message.
    const said = SECRET_SAMPLES.map((s) => JSON.stringify({ type: "user", message: { role: "user", content: `For the record: ${s.text}` } }));
    fs.appendFileSync(t.transcript, `${said.join("\n")}\n`);
    const res = await t.sweep("llm-secrets");
    const [request] = chatRequests(t.openai);
    const sent = JSON.stringify(request?.body);
    for (const secret of SECRETS) expect(sent.includes(secret), `${secret} sent to the model`).toBe(false);
    expect(sent).toContain("[REDACTED:aws-access-key]");

    const saved = res.memories.find((m) => m.reason === `distilled by ${MODEL}`)?.memory;
    expect(saved?.content).toBe("The old Jenkins AWS key [REDACTED:aws-access-key] was pasted in the chat and must be rotated.");
    // Stopping flushes the log to disk; every file under the state directory is read after.
    await t.restart();
    for (const file of filesUnder(t.home)) {
      const bytes = fs.readFileSync(file).toString("latin1");
      for (const secret of SECRETS) expect(bytes.includes(secret), `${secret} in ${file}`).toBe(false);
    }
  });

  it.each<[string, FakeChatBehaviour]>([
    ["answers 500", 500],
    ["answers with a body that is not JSON", "garbage"],
    ["writes something other than a memories list", () => "I could not find anything."],
  ])("keeps the rule-based result alone when the model %s", async (_name, behaviour) => {
    const t = await setUp(behaviour);
    const res = await t.sweep("llm-fail");
    expect(chatRequests(t.openai)).toHaveLength(1);
    expect(res.memories.map((m) => m.outcome)).toEqual(Array(7).fill(CaptureOutcome.CREATED));
    expect(res.memories.some((m) => m.reason.startsWith("distilled by"))).toBe(false);
  });

  it("keeps the day's usage across a restart and starts afresh on a new UTC day", async () => {
    const t = await setUp(() => JSON.stringify({ memories: [] }));
    await t.sweep("llm-usage");
    expect((await t.clients().admin.stats({})).llm).toMatchObject({ provider: "openai", model: "gpt-4o-mini", day: "2026-10-14", tokensToday: 1200n, callsToday: 1n });
    await t.restart();
    expect((await t.clients().admin.stats({})).llm).toMatchObject({ day: "2026-10-14", tokensToday: 1200n, callsToday: 1n });
    t.clock.set(Date.UTC(2026, 9, 15, 0, 0, 1));
    expect((await t.clients().admin.stats({})).llm).toMatchObject({ day: "2026-10-15", tokensToday: 0n, callsToday: 0n });
  });

  it("sends nothing once the day's cap would be passed, and sweeps by the rules alone", async () => {
    const openai = await startFakeOpenAiChat({ behaviour: () => JSON.stringify(PROPOSALS) });
    const home = makeHome();
    cleanups.push(async () => {
      await openai.close();
      fs.rmSync(home, { recursive: true, force: true });
    });
    const running = await start(home, fakeClock(NOW), openai, { MEMD_LLM_DAILY_TOKENS: "1000" });
    cleanups.push(() => running.daemon.close());
    const res = await running.clients.capture.captureTranscript({
      transcriptPath: path.join(TRANSCRIPTS, "session-auth-refactor.jsonl"), sessionId: "llm-cap", project: "acme-api", trigger: "test", wait: true,
    });
    expect(chatRequests(openai)).toHaveLength(0);
    expect(res.memories).toHaveLength(7);
  });
});
