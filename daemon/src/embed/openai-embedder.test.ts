import { afterEach, describe, expect, it } from "vitest";
import { type Handler, type LocalServer, fakeVector, refusedUrl, sendJson, startLocalServer, unitFakeVector } from "../../../test/embed/local-http-server.js";
import { type Embedder, EmbedderSetupError } from "./embedder.js";
import { type OpenAiEmbedderOptions, createOpenAiEmbedder } from "./openai-embedder.js";
import { embeddingFailure } from "../../../test/embed/embedding-failure.js";

const KEY = "sk-test-0123456789";
const servers: LocalServer[] = [];
const embedders: Embedder[] = [];

/** Speaks POST /v1/embeddings like OpenAI, answering `data` in reverse order (the API does not promise order). */
const embeddings =
  (dimensions = 1536): Handler =>
  (request, response) => {
    const { input } = request.body as { input: string[] };
    const data = input.map((text, index) => ({ object: "embedding", index, embedding: fakeVector(text, dimensions) }));
    sendJson(response, 200, { object: "list", data: data.reverse(), model: "text-embedding-3-small", usage: { prompt_tokens: 5, total_tokens: 5 } });
  };

const failing =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_request, response) =>
    sendJson(response, status, body, headers);

async function openai(handler: Handler, options: Partial<OpenAiEmbedderOptions> = {}): Promise<{ server: LocalServer; embedder: Embedder }> {
  const server = await startLocalServer(handler);
  servers.push(server);
  const embedder = createOpenAiEmbedder({ apiKey: KEY, baseUrl: server.url, ...options });
  embedders.push(embedder);
  return { server, embedder };
}

afterEach(async () => {
  await Promise.all(embedders.splice(0).map((e) => e.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("openai provider (against a local server speaking the OpenAI embeddings API)", () => {
  it("posts the texts with the API key and returns unit vectors in the texts' order", async () => {
    const { server, embedder } = await openai(embeddings());
    const vectors = await embedder.embed(["first memory", "second memory", "third"], "document");
    expect(vectors).toEqual(["first memory", "second memory", "third"].map((t) => unitFakeVector(t, 1536)));
    const [request] = server.requests;
    expect(request?.path).toBe("/v1/embeddings");
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toEqual({ model: "text-embedding-3-small", input: ["first memory", "second memory", "third"], encoding_format: "float" });
    expect(embedder.space).toEqual({ provider: "openai", model: "text-embedding-3-small", dimensions: 1536 });
  });

  it("adds no prefix to searches and splits large batches, keeping order", async () => {
    const { server, embedder } = await openai(embeddings(), { batchSize: 2 });
    const texts = ["a query", "b", "c", "d", "e"];
    expect(await embedder.embed(texts, "query")).toEqual(texts.map((t) => unitFakeVector(t, 1536)));
    expect(server.requests.map((r) => (r.body as { input: string[] }).input)).toEqual([["a query", "b"], ["c", "d"], ["e"]]);
  });

  it("accepts a base URL that already ends in /v1", async () => {
    const server = await startLocalServer(embeddings());
    servers.push(server);
    const embedder = createOpenAiEmbedder({ apiKey: KEY, baseUrl: `${server.url}/v1/` });
    embedders.push(embedder);
    await embedder.embed(["x"], "document");
    expect(server.requests[0]?.path).toBe("/v1/embeddings");
  });

  it("says the key is invalid or revoked on 401, and does not retry", async () => {
    const { embedder } = await openai(failing(401, { error: { message: "Incorrect API key provided", code: "invalid_api_key" } }));
    const error = await embeddingFailure(embedder.embed(["x"], "document"));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/^OPENAI_API_KEY is invalid or revoked/);
    expect(error.message).not.toContain(KEY);
  });

  it("retries a 429 after the time in Retry-After", async () => {
    const { embedder } = await openai(failing(429, { error: { message: "Rate limit reached", code: "rate_limit_exceeded" } }, { "retry-after": "7" }));
    const error = await embeddingFailure(embedder.embed(["x"], "document"));
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(7000);
  });

  it("does not retry a 429 that means the account is out of quota", async () => {
    const { embedder } = await openai(failing(429, { error: { message: "You exceeded your current quota", code: "insufficient_quota" } }));
    const error = await embeddingFailure(embedder.embed(["x"], "document"));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/no quota left/);
  });

  it("retries 5xx answers", async () => {
    const { embedder } = await openai(failing(503, { error: { message: "The server is overloaded" } }));
    const error = await embeddingFailure(embedder.embed(["x"], "document"));
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBeUndefined();
  });

  it("refuses vectors of the wrong dimension", async () => {
    const { embedder } = await openai(embeddings(512));
    const error = await embeddingFailure(embedder.embed(["x"], "document"));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/returned 512 dimensions, expected 1536/);
  });

  it("fails retryably when the server does not answer before the timeout", async () => {
    const { embedder } = await openai(() => undefined, { timeoutMs: 100 });
    const error = await embeddingFailure(embedder.embed(["x"], "document"));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/did not answer within 100 ms/);
  });

  it("fails retryably when nothing listens", async () => {
    const embedder = createOpenAiEmbedder({ apiKey: KEY, baseUrl: await refusedUrl() });
    embedders.push(embedder);
    const error = await embeddingFailure(embedder.embed(["x"], "document"));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/connection refused/);
  });

  it("refuses to send the key over plain http to another machine, or without a key", () => {
    expect(() => createOpenAiEmbedder({ apiKey: KEY, baseUrl: "http://api.example.com" })).toThrow(EmbedderSetupError);
    expect(() => createOpenAiEmbedder({ apiKey: " " })).toThrow(/OPENAI_API_KEY/);
  });
});
