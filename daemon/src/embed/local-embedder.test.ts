import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Embedder } from "./embedder.js";
import { createLocalEmbedder } from "./local-embedder.js";
import { embeddingFailure } from "../../../test/embed/embedding-failure.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-local-embedder-"));
const embedders: Embedder[] = [];

/**
 * A stand-in worker speaking the local protocol: it notes each start and each text it embeds
 * in files, answers each text with [length, 1, 0, ...], and dies on the text "crash". Tests of
 * the pool run in milliseconds with it; the real model has its own tests below.
 */
function fakeWorker(name: string): { url: URL; starts: () => number; embedded: () => string[] } {
  const marker = path.join(dir, `${name}.starts`);
  const texts = path.join(dir, `${name}.texts`);
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(
    file,
    `import { parentPort } from "node:worker_threads";
import fs from "node:fs";
fs.appendFileSync(${JSON.stringify(marker)}, "start\\n");
parentPort.on("message", ({ id, texts }) => {
  fs.appendFileSync(${JSON.stringify(texts)}, texts.map((t) => t + "\\n").join(""));
  if (texts.includes("crash")) throw new Error("simulated crash");
  const vectors = texts.map((t) => { const v = new Float32Array(512); v[0] = t.length; v[1] = 1; return v; });
  parentPort.postMessage({ type: "vectors", id, vectors }, vectors.map((v) => v.buffer));
});
`,
  );
  const lines = (at: string) => (fs.existsSync(at) ? fs.readFileSync(at, "utf8").split("\n").slice(0, -1) : []);
  return { url: pathToFileURL(file), starts: () => lines(marker).length, embedded: () => lines(texts) };
}

function embedder(options: Parameters<typeof createLocalEmbedder>[0]): Embedder {
  const created = createLocalEmbedder(options);
  embedders.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(embedders.splice(0).map((e) => e.close()));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("local embedder worker pool (with a stand-in worker)", () => {
  it("starts no thread until the first call, and a second only when work waits", async () => {
    const worker = fakeWorker("lazy");
    const e = embedder({ workerUrl: worker.url, threads: 2 });
    expect(worker.starts()).toBe(0);
    await e.embed(["one"], "document");
    expect(worker.starts()).toBe(1);
    await e.embed(["a", "b", "c", "d"], "document");
    expect(worker.starts()).toBe(1);
    const many = embedder({ workerUrl: worker.url, threads: 2, jobSize: 1 });
    await many.embed(["a", "b", "c"], "document");
    expect(worker.starts()).toBe(3);
  });

  it("stops an extra thread once it is idle, keeping the first, and starts another under the next backlog", async () => {
    const worker = fakeWorker("idle");
    const e = embedder({ workerUrl: worker.url, threads: 2, jobSize: 1, idleMs: 0 });
    await e.embed(["a", "b", "c"], "document");
    expect(worker.starts()).toBe(2);
    await vi.waitFor(async () => {
      await e.embed(["a", "b", "c"], "document");
      expect(worker.starts()).toBe(3);
    });
  });

  it("stops the last thread too once it is idle past its keep-alive, and loads the model again on the next call", async () => {
    const worker = fakeWorker("keep-alive");
    const e = embedder({ workerUrl: worker.url, threads: 1, keepAliveMs: 0 });
    expect(e.residency?.().state).toBe("unloaded");
    await e.embed(["a"], "document");
    await vi.waitFor(() => expect(e.residency?.().state).toBe("unloaded"));
    expect((await e.embed(["again"], "query"))[0]?.[0]).toBe(5);
    expect(worker.starts()).toBe(2);
  });

  it("reports a model that fails to load as retryable and in its residency, and clears it once a load succeeds", async () => {
    const fails = path.join(dir, "load-fails");
    fs.writeFileSync(fails, "");
    const file = path.join(dir, "load-failure.mjs");
    fs.writeFileSync(
      file,
      `import { parentPort } from "node:worker_threads";
import fs from "node:fs";
const broken = fs.existsSync(${JSON.stringify(fails)});
if (!broken) parentPort.postMessage({ type: "loaded" });
parentPort.on("message", ({ id, texts }) => {
  if (broken) {
    parentPort.postMessage({ type: "error", id, message: "Backend 'wasm' has not yet been initialized", retryable: true, load: true });
    process.exit(1);
  }
  const vectors = texts.map(() => { const v = new Float32Array(512); v[0] = 1; return v; });
  parentPort.postMessage({ type: "vectors", id, vectors }, vectors.map((v) => v.buffer));
});
`,
    );
    const e = embedder({ workerUrl: pathToFileURL(file), threads: 1 });
    const error = await embeddingFailure(e.embed(["a"], "document"));
    expect(error.retryable).toBe(true);
    expect(e.residency?.()).toEqual({ state: "failed", loadError: "Backend 'wasm' has not yet been initialized", failedLoads: 1 });
    await embeddingFailure(e.embed(["a"], "document"));
    expect(e.residency?.().failedLoads).toBe(2);
    fs.rmSync(fails);
    await e.embed(["a"], "document");
    expect(e.residency?.()).toEqual({ state: "loaded", loadError: "", failedLoads: 0 });
  });

  it("returns the vectors in the order of the texts, whatever order the jobs ran in", async () => {
    const texts = ["ccc", "a", "eeeee", "bb", "dddd"];
    const vectors = await embedder({ workerUrl: fakeWorker("order").url, jobSize: 2 }).embed(texts, "document");
    expect(vectors.map((v) => v[0])).toEqual([3, 1, 5, 2, 4]);
  });

  it("serves a search before documents that were queued earlier", async () => {
    const e = embedder({ workerUrl: fakeWorker("priority").url, threads: 1, jobSize: 1 });
    const finished: string[] = [];
    const calls = [
      e.embed(["document 1"], "document").then(() => finished.push("document 1")),
      e.embed(["document 2"], "document").then(() => finished.push("document 2")),
      e.embed(["document 3"], "document").then(() => finished.push("document 3")),
      e.embed(["search"], "query").then(() => finished.push("search")),
    ];
    await Promise.all(calls);
    expect(finished).toEqual(["document 1", "search", "document 2", "document 3"]);
  });

  it("drops a search its caller stopped waiting for before a worker took it, and rejects it at once", async () => {
    const worker = fakeWorker("abandoned");
    const e = embedder({ workerUrl: worker.url, threads: 1, jobSize: 1 });
    const documents = [e.embed(["document 1"], "document"), e.embed(["document 2"], "document")];
    const abandon = new AbortController();
    const search = e.embed(["search"], "query", abandon.signal);
    abandon.abort();
    await expect(search).rejects.toMatchObject({ name: "EmbeddingError", retryable: false, message: "the caller stopped waiting for this embedding" });
    await Promise.all(documents);
    expect(worker.embedded()).toEqual(["document 1", "document 2"]);
    await expect(e.embed(["late"], "query", abandon.signal)).rejects.toThrow("stopped waiting");
  });

  it("rejects the call in flight when its worker crashes, and starts a fresh worker on the next call", async () => {
    const worker = fakeWorker("crash");
    const e = embedder({ workerUrl: worker.url });
    await e.embed(["warm"], "document");
    const error = await embeddingFailure(e.embed(["crash"], "document"));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/worker stopped \(simulated crash\)/);
    expect((await e.embed(["after"], "document"))[0]?.[0]).toBe(5);
    expect(worker.starts()).toBe(2);
  });

  it("fails the waiting calls when the worker cannot start, and tries again on the next call", async () => {
    const e = embedder({ workerUrl: pathToFileURL(path.join(dir, "missing-worker.mjs")) });
    const errors = await Promise.all([embeddingFailure(e.embed(["a"], "document")), embeddingFailure(e.embed(["b"], "query"))]);
    expect(errors.every((error) => error.retryable)).toBe(true);
    expect((await embeddingFailure(e.embed(["c"], "document"))).message).toMatch(/worker stopped/);
  });

  it("rejects calls in flight on close, and every call after", async () => {
    const e = embedder({ workerUrl: fakeWorker("close").url, jobSize: 1 });
    const pending = embeddingFailure(e.embed(["a", "b", "c"], "document"));
    await e.close();
    expect((await pending).message).toMatch(/closed/);
    expect((await embeddingFailure(e.embed(["x"], "document"))).retryable).toBe(false);
    await e.close();
  });

  it("refuses a blank text without starting a worker", async () => {
    const worker = fakeWorker("blank");
    const error = await embeddingFailure(embedder({ workerUrl: worker.url }).embed([" "], "document"));
    expect(error.retryable).toBe(false);
    expect(worker.starts()).toBe(0);
  });
});

describe("local embedder (Universal Sentence Encoder lite in a worker thread)", () => {
  let model: Embedder;
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

  beforeAll(() => {
    model = createLocalEmbedder({ threads: 1 });
  });
  afterAll(() => model.close());

  it("embeds into 512 unit-length dimensions, by meaning rather than shared words", async () => {
    const [query, auth, postgres] = await model.embed(
      ["how do users sign in", "Authentication is handled by Clerk, not custom JWT", "Postgres runs on port 5433"],
      "query",
    );
    for (const v of [query, auth, postgres]) {
      expect(v).toHaveLength(512);
      expect(Math.hypot(...(v as Float32Array))).toBeCloseTo(1, 5);
    }
    expect(dot(query as Float32Array, auth as Float32Array)).toBeGreaterThan(dot(query as Float32Array, postgres as Float32Array));
    // The model (tfjs) was loaded in the worker, never in this thread.
    expect("_tfengine" in globalThis).toBe(false);
  });

  it("keeps the main thread's event loop turning while the worker embeds a batch", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      const texts = Array.from({ length: 48 }, (_, i) => `Memory ${i}: the staging cluster deploys from main after CI passes.`);
      const vectors = await model.embed(texts, "document");
      expect(vectors).toHaveLength(48);
      // The timer fires while the batch is embedded elsewhere, not only once it is done.
      expect(ticks).toBeGreaterThan(0);
    } finally {
      clearInterval(timer);
    }
  });

  it("lets the end of a long text count, averaging windows past the model's 128 tokens", async () => {
    // About 220 tokens of one topic, then another: a model that kept only the first 128 tokens would not see the tail.
    const auth = "Authentication is handled by Clerk, not custom JWT. ".repeat(12);
    const tail = " Postgres runs on port 5433 in docker compose, and the read replica serves analytics.".repeat(3);
    const [head, whole, postgres] = await model.embed([auth, auth + tail, "Postgres runs on port 5433"], "document");
    expect(dot(whole as Float32Array, postgres as Float32Array)).toBeGreaterThan(dot(head as Float32Array, postgres as Float32Array) + 0.05);
  });
});
