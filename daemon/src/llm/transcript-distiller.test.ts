import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { candidate } from "../capture/candidate.js";
import type { TranscriptEvent } from "../capture/transcript-event.js";
import { parseTranscriptLine } from "../capture/transcript-line.js";
import { SECRET_SAMPLES } from "../redact/secret-corpus.js";
import type { ChatMessage, ChatModel } from "./chat-model.js";
import { distilledCandidates, mergeDistilled } from "./distilled-candidates.js";
import { createTranscriptDistiller, distillationText } from "./transcript-distiller.js";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../test/fixtures/transcripts");
const TRANSCRIPT = fs.readFileSync(path.join(FIXTURES, "session-auth-refactor.jsonl"), "utf8");
const EXPECTED = JSON.parse(fs.readFileSync(path.join(FIXTURES, "session-auth-refactor.expected.json"), "utf8")) as {
  secrets_must_not_be_stored: { value: string }[];
};

function eventsOf(jsonl: string): TranscriptEvent[] {
  return jsonl.split("\n").flatMap((line, i) => {
    const parsed = line.trim() === "" ? null : parseTranscriptLine(line, i + 1);
    return parsed?.ok ? parsed.events : [];
  });
}

const events = eventsOf(TRANSCRIPT);

function scripted(reply: string): ChatModel & { prompts: ChatMessage[][] } {
  const prompts: ChatMessage[][] = [];
  return {
    provider: "openai",
    model: "gpt-4o-mini",
    prompts,
    async complete(messages) {
      prompts.push([...messages]);
      return { text: reply, usage: { inputTokens: 1, outputTokens: 1 } };
    },
    close: async () => undefined,
  };
}

describe("distillationText", () => {
  const { text, speakers } = distillationText(events, 100_000);

  it("holds the session's prose, one line per message with its line number and speaker", () => {
    expect(text).toMatch(/^\[3, user\] .*always use pnpm in this repo/m);
    expect(speakers.get(3)).toBe("user");
  });

  it("redacts every secret of the fixture and leaves the marker in its place", () => {
    for (const { value } of EXPECTED.secrets_must_not_be_stored) expect(text).not.toContain(value);
    expect(text).toContain("[REDACTED:aws-access-key]");
  });

  it("leaves out tool output and file contents", () => {
    expect(text).not.toMatch(/export async function|CREATE TABLE/);
  });

  it("redacts every secret of the corpus when it is said in a message", () => {
    const said = SECRET_SAMPLES.map((sample, i) => ({ kind: "text" as const, role: "user" as const, text: `Please remember this: ${sample.text}`, line: i + 1 }));
    const corpusText = distillationText(said, 1_000_000).text;
    for (const sample of SECRET_SAMPLES) for (const secret of sample.secrets) expect(corpusText).not.toContain(secret.value);
  });

  it("keeps only the tail past the character limit", () => {
    const short = distillationText(events, 400);
    expect(short.text.length).toBeLessThanOrEqual(400);
    expect(text.endsWith(short.text)).toBe(true);
    expect(short.speakers.has(3)).toBe(false);
  });
});

describe("distilledCandidates", () => {
  const speakers = new Map([[14, "user" as const], [26, "assistant" as const]]);

  it("turns the model's items into staged candidates whose speaker comes from the cited line", () => {
    const [fact, episode] = distilledCandidates(
      [
        { kind: "Fact", content: "Local Postgres runs on port 5433.", concepts: ["postgres", 5], files: [], line: 14 },
        { kind: "episode", content: "Tokens were rejected.", problem: "exp in seconds vs ms", solution: "use jwtVerify", line: 99 },
      ],
      speakers,
      "openai:gpt-4o-mini",
    );
    expect(fact).toMatchObject({ kind: "fact", source: "user", line: 14, concepts: ["postgres"], model: "openai:gpt-4o-mini", reason: "distilled by openai:gpt-4o-mini" });
    expect(episode).toMatchObject({ kind: "episode", source: "assistant", line: 0, problem: "exp in seconds vs ms", solution: "use jwtVerify" });
  });

  it("drops items of unknown kinds, without content, too long, or quoting a redaction marker", () => {
    const dropped = distilledCandidates(
      [
        { kind: "todo", content: "Convert requireAuth to a named export." },
        { kind: "fact", content: "  " },
        { kind: "fact", content: "x".repeat(601) },
        { kind: "fact", content: "The CI key is [REDACTED:aws-access-key]." },
        "not an object",
      ],
      speakers,
      "openai:gpt-4o-mini",
    );
    expect(dropped).toEqual([]);
  });
});

describe("mergeDistilled", () => {
  const rules = [candidate({ kind: "decision", content: "Use jose instead of jsonwebtoken: it runs on Cloudflare Workers.", source: "user", line: 14, reason: "r" })];
  const model = (content: string) => candidate({ kind: "fact", content, source: "assistant", line: 0, reason: "m", model: "openai:gpt-4o-mini" });

  it("puts the rules' candidates first and drops the model's that repeat one in other words", () => {
    const merged = mergeDistilled(rules, [model("We use jose instead of jsonwebtoken because it runs on Cloudflare Workers."), model("Local Postgres listens on port 5433.")]);
    expect(merged.map((c) => c.content)).toEqual([rules[0]?.content, "Local Postgres listens on port 5433."]);
  });

  it("drops the model's own repeats", () => {
    expect(mergeDistilled([], [model("Local Postgres listens on port 5433."), model("Postgres listens locally on port 5433.")])).toHaveLength(1);
  });
});

describe("createTranscriptDistiller", () => {
  it("asks for JSON memories and returns the candidates the reply lists", async () => {
    const reply = JSON.stringify({ memories: [{ kind: "fact", content: "Local dev Postgres runs in Docker on port 5433.", line: 14 }] });
    const chat = scripted(reply);
    const outcome = await createTranscriptDistiller(chat).distill(events);
    expect(outcome).toMatchObject({ ok: true, candidates: [{ kind: "fact", content: "Local dev Postgres runs in Docker on port 5433.", line: 14 }] });
    expect(chat.prompts[0]?.[0]?.content).toMatch(/JSON/);
  });

  it("reports a reply without a memories list as a failure", async () => {
    expect(await createTranscriptDistiller(scripted('{"facts": []}')).distill(events)).toEqual({ ok: false, reason: 'the reply is not a JSON object with a "memories" list' });
  });

  it("makes no call for a transcript without prose", async () => {
    const chat = scripted("{}");
    expect(await createTranscriptDistiller(chat).distill([])).toEqual({ ok: true, candidates: [] });
    expect(chat.prompts).toHaveLength(0);
  });
});
