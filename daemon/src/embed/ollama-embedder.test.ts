import { afterEach, describe, expect, it, vi } from "vitest";
import { startFakeOllama } from "../../../test/embed/fake-ollama.js";
import { type LocalServer, refusedUrl, sendJson, startLocalServer, unitFakeVector } from "../../../test/embed/local-http-server.js";
import type { Embedder } from "./embedder.js";
import { createOllamaEmbedder } from "./ollama-embedder.js";
import { embeddingFailure } from "../../../test/embed/embedding-failure.js";

const servers: LocalServer[] = [];
const embedders: Embedder[] = [];

async function serve(server: Promise<LocalServer>): Promise<LocalServer> {
  const started = await server;
  servers.push(started);
  return started;
}

function embedder(options: Parameters<typeof createOllamaEmbedder>[0]): Embedder {
  const created = createOllamaEmbedder(options);
  embedders.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(embedders.splice(0).map((e) => e.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("ollama provider (against a local server speaking the Ollama API)", () => {
  it("adds the nomic task prefixes: search_document for memories, search_query for searches", async () => {
    const ollama = await serve(startFakeOllama());
    const e = embedder({ host: ollama.url });
    await e.embed(["Auth is Clerk, not custom JWT"], "document");
    await e.embed(["which login provider do we rely on"], "query");
    expect(ollama.requests.map((r) => r.body)).toEqual([
      { model: "nomic-embed-text", input: ["search_document: Auth is Clerk, not custom JWT"], truncate: true },
      { model: "nomic-embed-text", input: ["search_query: which login provider do we rely on"], truncate: true },
    ]);
    expect(e.space).toEqual({ provider: "ollama", model: "nomic-embed-text", dimensions: 768 });
  });

  it("returns one unit-length vector per text, each in its own buffer", async () => {
    const ollama = await serve(startFakeOllama());
    const vectors = await embedder({ host: ollama.url }).embed(["alpha", "beta"], "document");
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toEqual(unitFakeVector("search_document: alpha", 768));
    expect(vectors[1]).toEqual(unitFakeVector("search_document: beta", 768));
    expect(vectors[0]?.buffer).not.toBe(vectors[1]?.buffer);
  });

  it("keeps the texts' order across several /api/embed requests", async () => {
    const ollama = await serve(startFakeOllama());
    const texts = Array.from({ length: 10 }, (_, i) => `memory number ${i}`);
    const vectors = await embedder({ host: ollama.url, batchSize: 4 }).embed(texts, "document");
    expect(ollama.requests.map((r) => (r.body as { input: string[] }).input.length)).toEqual([4, 4, 2]);
    expect(vectors).toEqual(texts.map((t) => unitFakeVector(`search_document: ${t}`, 768)));
  });

  it("fails retryably when nothing listens at the host", async () => {
    const error = await embeddingFailure(embedder({ host: await refusedUrl() }).embed(["x"], "document"));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/not reachable \(connection refused\)/);
  });

  it("fails retryably when Ollama does not answer before the timeout", async () => {
    const ollama = await serve(startFakeOllama({ embed: "hang" }));
    const error = await embeddingFailure(embedder({ host: ollama.url, timeoutMs: 100 }).embed(["x"], "document"));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/did not answer within 100 ms/);
  });

  it("refuses vectors of the wrong dimension, saying what it expected and what it got", async () => {
    const ollama = await serve(startFakeOllama({ dimensions: 384 }));
    const error = await embeddingFailure(embedder({ host: ollama.url }).embed(["x"], "document"));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/returned 384 dimensions, expected 768/);
  });

  it("tells the user to pull a model Ollama does not have, and does not retry", async () => {
    const ollama = await serve(startFakeOllama({ models: ["all-minilm:latest"] }));
    const error = await embeddingFailure(embedder({ host: ollama.url }).embed(["x"], "document"));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("ollama pull nomic-embed-text");
  });

  it("retries server errors but not other refusals", async () => {
    const failing = await serve(startFakeOllama({ embed: 500 }));
    expect((await embeddingFailure(embedder({ host: failing.url }).embed(["x"], "document"))).retryable).toBe(true);
    const refusing = await serve(startFakeOllama({ embed: 400 }));
    expect((await embeddingFailure(embedder({ host: refusing.url }).embed(["x"], "document"))).retryable).toBe(false);
  });

  it("explains an error page that is not JSON without printing to stdout", async () => {
    const proxy = await serve(
      startLocalServer((_request, response) => {
        response.writeHead(502, { "content-type": "text/html" });
        response.end("<h1>Bad Gateway</h1>");
      }),
    );
    const log = vi.spyOn(console, "log");
    try {
      const error = await embeddingFailure(embedder({ host: proxy.url }).embed(["x"], "document"));
      expect(error.retryable).toBe(true);
      expect(error.message).toContain("Bad Gateway");
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });

  it("clips long texts to maxInputChars before sending them", async () => {
    const ollama = await serve(startFakeOllama());
    await embedder({ host: ollama.url, maxInputChars: 10 }).embed(["0123456789abcdef"], "document");
    expect(ollama.requests[0]?.body).toMatchObject({ input: ["search_document: 0123456789"] });
  });

  it("refuses blank texts without calling Ollama", async () => {
    const ollama = await serve(startFakeOllama());
    const error = await embeddingFailure(embedder({ host: ollama.url }).embed(["fine", "  "], "document"));
    expect(error.retryable).toBe(false);
    expect(ollama.requests).toHaveLength(0);
  });

  it("rejects calls in flight and after close", async () => {
    const ollama = await serve(startFakeOllama({ embed: "hang" }));
    const e = embedder({ host: ollama.url });
    const inFlight = e.embed(["x"], "document");
    await vi.waitFor(() => expect(ollama.requests).toHaveLength(1));
    await e.close();
    expect((await embeddingFailure(inFlight)).message).toMatch(/closed/);
    expect((await embeddingFailure(e.embed(["x"], "document"))).retryable).toBe(false);
  });

  it("uses no prefix for models that were not trained with one, and takes dimensions from the options", async () => {
    const ollama = await serve(
      startLocalServer((request, response) => {
        const { input } = request.body as { input: string[] };
        sendJson(response, 200, { embeddings: input.map(() => [3, 4]) });
      }),
    );
    const e = embedder({ host: ollama.url, model: "my-embedder:latest", dimensions: 2 });
    expect(await e.embed(["plain"], "query")).toEqual([Float32Array.from([0.6, 0.8])]);
    expect(ollama.requests[0]?.body).toMatchObject({ model: "my-embedder", input: ["plain"] });
    expect(e.space.model).toBe("my-embedder");
  });
});
