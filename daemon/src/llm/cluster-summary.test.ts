import { describe, expect, it } from "vitest";
import { buildMemory } from "../memory/new-memory.js";
import { checkSummary, createClusterSummariser, withSummary } from "./cluster-summary.js";
import type { ChatMessage, ChatModel } from "./chat-model.js";
import { ChatError } from "./chat-model.js";

const NOW = Date.UTC(2026, 0, 5);
const limits = { maxContentBytes: 65536 };
const members = [
  "The nightly backup job writes to the s3 bucket ops-backups at 02:00 UTC.",
  "The nightly backup (scripts/backup.sh) writes to ops-backups; it failed with ECONNRESET twice.",
];

/** A model that answers every call with `reply` and remembers the prompts it was sent. */
function scripted(reply: string | Error): ChatModel & { prompts: ChatMessage[][] } {
  const prompts: ChatMessage[][] = [];
  return {
    provider: "ollama",
    model: "llama3.2",
    prompts,
    async complete(messages) {
      prompts.push([...messages]);
      if (reply instanceof Error) throw reply;
      return { text: reply, usage: { inputTokens: 1, outputTokens: 1 } };
    },
    close: async () => undefined,
  };
}

describe("checkSummary", () => {
  const good = JSON.stringify({
    content: "The nightly backup (scripts/backup.sh) writes to the s3 bucket ops-backups at 02:00 UTC; it failed with ECONNRESET twice.",
    concepts: ["backup", "s3", 7, "  "],
  });

  it("accepts a JSON summary that keeps every identifier, taking only string concepts", () => {
    expect(checkSummary(members, good)).toEqual({
      ok: true,
      summary: { content: JSON.parse(good).content, concepts: ["backup", "s3"] },
    });
  });

  it("accepts the object inside a Markdown fence", () => {
    expect(checkSummary(members, `Here it is:\n\`\`\`json\n${good}\n\`\`\``).ok).toBe(true);
  });

  it.each([
    ["not JSON", "I merged them: the backup job writes to ops-backups.", /not a JSON object/],
    ["no content", '{"concepts": ["backup"]}', /no content/],
    ["an identifier dropped", '{"content": "The nightly backup writes to ops-backups at 02:00 UTC."}', /drops 3 identifier/],
    ["longer than the members", JSON.stringify({ content: `${members.join(" ")} ${"and more ".repeat(20)}` }), /longer than the memories/],
  ])("refuses a reply with %s", (_name, reply, reason) => {
    const checked = checkSummary(members, reply);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? "" : checked.reason).toMatch(reason);
  });
});

describe("createClusterSummariser", () => {
  const memories = members.map((content, i) => buildMemory({ content, kind: "episode", project: "ops" }, `01J${i}`, NOW + i, limits));

  it("sends the members' redacted contents, oldest first, and returns the checked summary", async () => {
    const withSecret = buildMemory({ content: "ops-backups uses s3", kind: "episode", project: "ops" }, "01J9", NOW - 1, limits);
    // Stored memories are redacted already; a pre-redaction record proves the summariser redacts again.
    const raw = { ...withSecret, content: "ops-backups uses s3 with AKIAJ6VWUWJ3TEXAMPLE" };
    const model = scripted('{"content": "x"}');
    await createClusterSummariser(model).summarise([memories[1], raw, memories[0]].filter((m) => m !== undefined));
    const sent = model.prompts[0]?.map((m) => m.content).join("\n") ?? "";
    expect(sent).not.toContain("AKIAJ6VWUWJ3TEXAMPLE");
    expect(sent).toContain("[REDACTED:aws-access-key]");
    expect(sent.indexOf("ops-backups uses s3")).toBeLessThan(sent.indexOf("02:00 UTC"));
    expect(sent.indexOf("02:00 UTC")).toBeLessThan(sent.indexOf("ECONNRESET"));
  });

  it("names the model that made the summary", async () => {
    const reply = JSON.stringify({ content: "The nightly backup (scripts/backup.sh) writes to s3 bucket ops-backups at 02:00 UTC; ECONNRESET twice." });
    expect(await createClusterSummariser(scripted(reply)).summarise(memories)).toMatchObject({ ok: true, madeBy: "ollama:llama3.2" });
  });

  it("reports a failed call as a reason instead of throwing", async () => {
    const outcome = await createClusterSummariser(scripted(new ChatError("ollama at x answered 500", "http", { status: 500 }))).summarise(memories);
    expect(outcome).toEqual({ ok: false, reason: "ollama at x answered 500" });
  });
});

describe("withSummary", () => {
  it("replaces the content, adds the summary's concepts after the members' own, and redacts what the model wrote", () => {
    const merged = buildMemory({ content: members.join("\n"), kind: "episode", project: "ops", concepts: ["backup"] }, "01JM", NOW, limits);
    const record = withSummary(merged, { content: "Backups go to ops-backups; key AKIAJ6VWUWJ3TEXAMPLE.", concepts: ["s3", "backup"] });
    expect(record).toMatchObject({ id: "01JM", content: "Backups go to ops-backups; key [REDACTED:aws-access-key].", concepts: ["backup", "s3"] });
  });
});
