import { describe, expect, it } from "vitest";
import { sendJson, startLocalServer } from "../../../test/embed/local-http-server.js";
import { chatFailure, chatFixtures } from "../../../test/llm/chat-fixtures.js";
import { startFakeOpenAiChat } from "../../../test/llm/fake-chat.js";
import { type ChatModel, ChatSetupError } from "./chat-model.js";
import { createOpenAiChat } from "./openai-chat.js";

const { serve, keep } = chatFixtures();

function model(baseUrl: string, timeoutMs?: number): ChatModel {
  return keep(createOpenAiChat({ apiKey: "sk-test-key", baseUrl, model: "gpt-4o-mini", timeoutMs }));
}

const messages = [
  { role: "system" as const, content: "Reply with JSON." },
  { role: "user" as const, content: "List what to remember." },
];

describe("openai chat provider (against a local server speaking the OpenAI API)", () => {
  it("posts /v1/chat/completions with the key, JSON mode and the completion token limit", async () => {
    const openai = await serve(startFakeOpenAiChat({ behaviour: () => "{}" }));
    await model(`${openai.url}/v1`).complete(messages, { maxTokens: 400, json: true });
    expect(openai.requests).toHaveLength(1);
    expect(openai.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      headers: { authorization: "Bearer sk-test-key" },
      body: { model: "gpt-4o-mini", messages, max_completion_tokens: 400, response_format: { type: "json_object" } },
    });
  });

  it("returns the first choice's text and the usage OpenAI reports", async () => {
    const openai = await serve(startFakeOpenAiChat({ behaviour: () => '{"memories": []}', usage: { input: 1200, output: 80 } }));
    expect(await model(openai.url).complete(messages, { maxTokens: 100, json: true })).toEqual({
      text: '{"memories": []}',
      usage: { inputTokens: 1200, outputTokens: 80 },
    });
  });

  it.each([
    [401, /OPENAI_API_KEY is invalid/],
    [404, /does not offer the model gpt-4o-mini/],
    [429, /refused the call \(429/],
    [500, /refused the call \(500.*simulated failure 500/],
  ])("fails with reason http when OpenAI answers %i", async (status, message) => {
    const openai = await serve(startFakeOpenAiChat({ behaviour: status }));
    const error = await chatFailure(model(openai.url).complete(messages, { maxTokens: 100, json: true }));
    expect(error).toMatchObject({ reason: "http", status });
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain("sk-test-key");
  });

  it("fails with reason bad-response, and the usage to charge, when the completion was cut at the token limit", async () => {
    const openai = await serve(
      startLocalServer((_request, response) =>
        sendJson(response, 200, { choices: [{ message: { content: '{"memo' }, finish_reason: "length" }], usage: { prompt_tokens: 900, completion_tokens: 100 } }),
      ),
    );
    const error = await chatFailure(model(openai.url).complete(messages, { maxTokens: 100, json: true }));
    expect(error).toMatchObject({ reason: "bad-response", usage: { inputTokens: 900, outputTokens: 100 } });
  });

  it("fails with reason bad-response when the answer is not JSON", async () => {
    const openai = await serve(startFakeOpenAiChat({ behaviour: "garbage" }));
    expect((await chatFailure(model(openai.url).complete(messages, { maxTokens: 100, json: true }))).reason).toBe("bad-response");
  });

  it("fails with reason timeout when OpenAI does not answer in time", async () => {
    const openai = await serve(startFakeOpenAiChat({ behaviour: "hang" }));
    const error = await chatFailure(model(openai.url, 100).complete(messages, { maxTokens: 100, json: true }));
    expect(error.reason).toBe("timeout");
  });

  it("refuses a clear-text base URL off this machine, so that the key is never sent unencrypted", () => {
    expect(() => createOpenAiChat({ apiKey: "sk-test-key", baseUrl: "http://proxy.example.com", model: "gpt-4o-mini" })).toThrow(ChatSetupError);
    expect(() => createOpenAiChat({ apiKey: " ", baseUrl: "https://api.openai.com", model: "gpt-4o-mini" })).toThrow(/OPENAI_API_KEY/);
  });
});
