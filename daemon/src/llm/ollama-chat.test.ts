import { describe, expect, it } from "vitest";
import { refusedUrl } from "../../../test/embed/local-http-server.js";
import { chatFailure, chatFixtures } from "../../../test/llm/chat-fixtures.js";
import { startFakeOllamaChat } from "../../../test/llm/fake-chat.js";
import type { ChatModel } from "./chat-model.js";
import { createOllamaChat } from "./ollama-chat.js";

const { serve, keep } = chatFixtures();

function model(host: string, timeoutMs?: number): ChatModel {
  return keep(createOllamaChat({ host, model: "llama3.2", timeoutMs }));
}

const messages = [
  { role: "system" as const, content: "Reply with JSON." },
  { role: "user" as const, content: "Merge these notes." },
];

describe("ollama chat provider (against a local server speaking the Ollama API)", () => {
  it("posts a non-streaming /api/chat request with JSON format, the token limit and temperature 0", async () => {
    const ollama = await serve(startFakeOllamaChat({ behaviour: () => '{"content": "ok"}' }));
    await model(ollama.url).complete(messages, { maxTokens: 300, json: true });
    expect(ollama.requests).toHaveLength(1);
    expect(ollama.requests[0]).toMatchObject({
      method: "POST",
      path: "/api/chat",
      body: { model: "llama3.2", messages, stream: false, format: "json", options: { num_predict: 300, temperature: 0 } },
    });
  });

  it("leaves the format out when no JSON is asked for", async () => {
    const ollama = await serve(startFakeOllamaChat({ behaviour: () => "plain" }));
    await model(ollama.url).complete(messages, { maxTokens: 50, json: false });
    expect(ollama.requests[0]?.body).not.toHaveProperty("format");
  });

  it("returns the message text and the token counts Ollama reports", async () => {
    const ollama = await serve(startFakeOllamaChat({ behaviour: () => '{"content": "merged"}', usage: { input: 321, output: 45 } }));
    const completion = await model(ollama.url).complete(messages, { maxTokens: 100, json: true });
    expect(completion).toEqual({ text: '{"content": "merged"}', usage: { inputTokens: 321, outputTokens: 45 } });
  });

  it("fails with reason http and the status when Ollama answers 500", async () => {
    const ollama = await serve(startFakeOllamaChat({ behaviour: 500 }));
    const error = await chatFailure(model(ollama.url).complete(messages, { maxTokens: 100, json: true }));
    expect(error).toMatchObject({ reason: "http", status: 500 });
    expect(error.message).toContain("answered 500: simulated failure 500");
  });

  it("tells the user to pull a model Ollama does not have", async () => {
    const ollama = await serve(startFakeOllamaChat({ behaviour: 404 }));
    const error = await chatFailure(model(ollama.url).complete(messages, { maxTokens: 100, json: true }));
    expect(error).toMatchObject({ reason: "http", status: 404 });
    expect(error.message).toContain("ollama pull llama3.2");
  });

  it("fails with reason bad-response when the answer is not JSON", async () => {
    const ollama = await serve(startFakeOllamaChat({ behaviour: "garbage" }));
    const error = await chatFailure(model(ollama.url).complete(messages, { maxTokens: 100, json: true }));
    expect(error.reason).toBe("bad-response");
  });

  it("fails with reason timeout when Ollama does not answer in time", async () => {
    const ollama = await serve(startFakeOllamaChat({ behaviour: "hang" }));
    const error = await chatFailure(model(ollama.url, 100).complete(messages, { maxTokens: 100, json: true }));
    expect(error.reason).toBe("timeout");
    expect(error.message).toMatch(/did not answer within 100 ms/);
  });

  it("fails with reason unreachable when nothing listens", async () => {
    const error = await chatFailure(model(await refusedUrl()).complete(messages, { maxTokens: 100, json: true }));
    expect(error.reason).toBe("unreachable");
    expect(error.message).toMatch(/connection refused/);
  });

  it("aborts a call in flight when closed, and refuses calls after", async () => {
    const ollama = await serve(startFakeOllamaChat({ behaviour: "hang" }));
    const chat = model(ollama.url, 60_000);
    const pending = chatFailure(chat.complete(messages, { maxTokens: 100, json: true }));
    // Close once the request has reached the server, so that the abort hits a call in flight.
    while (ollama.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await chat.close();
    expect((await pending).reason).toBe("closed");
    expect((await chatFailure(chat.complete(messages, { maxTokens: 100, json: true }))).reason).toBe("closed");
  });
});
