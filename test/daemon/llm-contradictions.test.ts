import { afterEach, describe, expect, it } from "vitest";
import { ContradictionSource } from "../../gen/memd/v1/contradiction_pb.js";
import type { LocalServer } from "../embed/local-http-server.js";
import { fakeClock, type InProcessDaemon, startInProcessDaemon } from "../helpers/in-process-daemon.js";
import { until } from "../helpers/until.js";
import { chatRequests, type FakeChatMessage, startFakeOpenAiChat } from "../llm/fake-chat.js";

const NOW = Date.UTC(2026, 9, 14, 12);
const MODEL = "openai:gpt-4o-mini";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The rules see the same count of the same thing, but too little else in common to call it likely. */
const OLD_YOGA = "I do yoga twice a week.";
const NEW_YOGA = "I attend yoga classes three times a week; it helps me clear my head.";

async function setUp(reply: (messages: FakeChatMessage[]) => string, env: Record<string, string> = {}): Promise<{ daemon: InProcessDaemon; openai: LocalServer }> {
  const openai = await startFakeOpenAiChat({ behaviour: reply, usage: { input: 300, output: 40 } });
  const daemon = await startInProcessDaemon({
    clock: fakeClock(NOW),
    env: { MEMD_LLM: "openai", OPENAI_API_KEY: "sk-test-key", MEMD_OPENAI_BASE_URL: openai.url, ...env },
  });
  cleanups.push(() => openai.close(), () => daemon.close());
  return { daemon, openai };
}

/** The model says a pair about yoga contradicts, and no other. */
function judgeYoga(messages: FakeChatMessage[]): string {
  const contradicts = messages.some((m) => m.content.includes("yoga"));
  return JSON.stringify({ contradicts, subject: "yoga classes a week", newer: "three", older: "twice" });
}

describe("contradictions judged by a language model (against a local server speaking the OpenAI API)", () => {
  it("queues a pair the rules found only possible once the model says it contradicts, naming the model", async () => {
    const { daemon, openai } = await setUp(judgeYoga);
    const { clients } = daemon;
    await clients.memory.save({ content: OLD_YOGA, project: "acme" });
    const saved = await clients.memory.save({ content: NEW_YOGA, project: "acme" });
    // The rules alone do not report it.
    expect(saved.contradictions).toEqual([]);
    const listed = await until(() => clients.contradictions.listContradictions({ project: "acme" }), (res) => res.contradictions.length > 0);
    expect(listed.contradictions[0]).toMatchObject({ detector: MODEL, source: ContradictionSource.SAVE, subject: "yoga classes a week", newerSays: "three", olderSays: "twice" });
    expect(chatRequests(openai)).toHaveLength(1);
    const sent = JSON.stringify(chatRequests(openai)[0]?.body);
    expect(sent).toContain(OLD_YOGA);
    expect(sent).toContain(NEW_YOGA);
    // Its tokens count against the daily cap.
    const stats = await clients.admin.stats({});
    expect(stats.llm?.tokensToday).toBe(340n);
  });

  it("hands the model a pair an update made possible, with the edited memory as the newer, though it was saved first", async () => {
    const { daemon, openai } = await setUp(judgeYoga);
    const { clients } = daemon;
    const edited = await clients.memory.save({ content: "I take the bus to work.", project: "acme" });
    await clients.memory.save({ content: OLD_YOGA, project: "acme" });
    const id = edited.memory?.id ?? "";
    expect((await clients.memory.update({ id, content: NEW_YOGA })).contradictions).toEqual([]);
    const listed = await until(() => clients.contradictions.listContradictions({ project: "acme" }), (res) => res.contradictions.length > 0);
    expect(listed.contradictions[0]).toMatchObject({ detector: MODEL, source: ContradictionSource.UPDATE, newerSays: "three", olderSays: "twice" });
    expect(listed.contradictions[0]?.memory?.id).toBe(id);
    expect(chatRequests(openai)).toHaveLength(1);
  });

  it("queues nothing when the model says the pair holds together", async () => {
    const { daemon, openai } = await setUp(judgeYoga);
    const { clients } = daemon;
    // Two possible pairs, judged one at a time in order: the second one's verdict shows the first was judged.
    await clients.memory.save({ content: "Rate limit on /api/login is 5 requests per minute.", project: "acme" });
    await clients.memory.save({ content: "/api/search is rate limited to 60 requests per minute.", project: "acme" });
    await clients.memory.save({ content: OLD_YOGA, project: "acme" });
    await clients.memory.save({ content: NEW_YOGA, project: "acme" });
    const listed = await until(() => clients.contradictions.listContradictions({ project: "acme" }), (res) => res.contradictions.length > 0);
    expect(chatRequests(openai)).toHaveLength(2);
    expect(listed.contradictions.map((c) => c.subject)).toEqual(["yoga classes a week"]);
  });

  it("asks nothing once the daily cap is spent, and the rules' own findings still stand", async () => {
    const { daemon, openai } = await setUp(judgeYoga, { MEMD_LLM_DAILY_TOKENS: "100" });
    const { clients } = daemon;
    await clients.memory.save({ content: OLD_YOGA, project: "acme" });
    await clients.memory.save({ content: NEW_YOGA, project: "acme" });
    await clients.memory.save({ content: "Auth is Clerk, not custom JWT.", project: "acme" });
    const likely = await clients.memory.save({ content: "Auth moved to Auth0 last sprint.", project: "acme" });
    expect(likely.contradictions.map((c) => c.detector)).toEqual(["rules"]);
    expect(chatRequests(openai)).toHaveLength(0);
  });
});
