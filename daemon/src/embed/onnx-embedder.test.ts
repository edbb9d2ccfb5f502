import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type EncoderShape, writeEncoderModel } from "../../../bench/onnx-encoder-model.js";
import type { Embedder } from "./embedder.js";
import { createOnnxEmbedder, loadOnnxRuntime, type OnnxRuntime } from "./onnx-embedder.js";
import { type OnnxModelSpec, readOnnxModelDir } from "./onnx-model-dir.js";

// Tiny random-weight encoders the test writes itself: what their vectors mean is nothing, how
// they are computed (tokens, padding, pooling, prefixes, limits) is everything memd does.
const SHAPE: EncoderShape = {
  layers: 2, hidden: 16, heads: 2, intermediate: 32, maxPositions: 64, quantized: true,
  vocabulary: ["webhook", "retries", "are", "capped", "at", "five", "the", "deploy", "runs", "on", "argo", "query", ":", "##s"],
};

let root: string;
let ort: OnnxRuntime;
const embedders: Embedder[] = [];

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "memd-onnx-"));
  ort = await loadOnnxRuntime();
});
afterAll(async () => {
  for (const e of embedders) await e.close();
  fs.rmSync(root, { recursive: true, force: true });
});

function model(name: string, shape: Partial<EncoderShape> = {}, spec: Partial<OnnxModelSpec> = {}): Embedder {
  const dir = path.join(root, name);
  writeEncoderModel(dir, { ...SHAPE, ...shape }, 7);
  const embedder = createOnnxEmbedder({ ...readOnnxModelDir(dir), ...spec }, ort, { batchSize: 4 });
  embedders.push(embedder);
  return embedder;
}

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const closeTo = (a: Float32Array | undefined, b: Float32Array | undefined) => {
  expect(a?.length).toBe(b?.length);
  a?.forEach((x, i) => expect(x).toBeCloseTo(b?.[i] as number, 4));
};

describe("the ONNX embedder, on tiny encoders it writes itself", () => {
  it("loads a model that failed to load again on the next call, and unloads it when idle past its keep-alive", async () => {
    const dir = path.join(root, "late");
    writeEncoderModel(dir, SHAPE, 7);
    const spec = readOnnxModelDir(dir);
    const graph = fs.readFileSync(spec.modelFile);
    fs.writeFileSync(spec.modelFile, "not a model");
    const embedder = createOnnxEmbedder(spec, ort, { keepAliveMs: 0 });
    embedders.push(embedder);
    await expect(embedder.embed(["webhook retries"], "document")).rejects.toMatchObject({ name: "EmbeddingError", retryable: true });
    expect(embedder.residency?.()).toMatchObject({ state: "failed", failedLoads: 1 });
    fs.writeFileSync(spec.modelFile, graph);
    expect(await embedder.embed(["webhook retries"], "document")).toHaveLength(1);
    await vi.waitFor(() => expect(embedder.residency?.()).toEqual({ state: "unloaded", loadError: "", failedLoads: 0 }));
    expect(await embedder.embed(["the deploy runs"], "query")).toHaveLength(1);
  });

  it("embeds each text as a unit vector of the model's width, in order, in the onnx space", async () => {
    const embedder = model("plain");
    const [a, b] = await embedder.embed(["webhook retries are capped at five", "the deploy runs on argo"], "document");
    expect(embedder.space).toEqual({ provider: "onnx", model: "plain", dimensions: 16 });
    expect(a).toHaveLength(16);
    expect(norm(a as Float32Array)).toBeCloseTo(1, 5);
    expect(a).not.toEqual(b);
  });

  it("gives a text the same vector alone and in a batch with longer texts (padding is left out)", async () => {
    const embedder = model("padding", { quantized: false });
    const [alone] = await embedder.embed(["argo"], "document");
    const batched = await embedder.embed(["the deploy runs on argo and webhook retries are capped at five", "argo", "webhook"], "document");
    closeTo(alone, batched[1]);
  });

  it("puts the model's query prefix before queries only", async () => {
    const embedder = model("prefixed", { quantized: false }, { prefixes: { query: "query: ", document: "" } });
    const [asQuery] = await embedder.embed(["argo"], "query");
    const [prefixedDocument] = await embedder.embed(["query: argo"], "document");
    const [plainDocument] = await embedder.embed(["argo"], "document");
    closeTo(asQuery, prefixedDocument);
    expect(asQuery).not.toEqual(plainDocument);
  });

  it("reads no further than the model's token limit", async () => {
    const embedder = model("limited", { quantized: false }, { maxTokens: 6 });
    const [short] = await embedder.embed(["webhook retries are capped at five"], "document");
    const [long] = await embedder.embed(["webhook retries are capped at five the deploy runs on argo"], "document");
    closeTo(short, long);
  });

  it("refuses a blank text, an abandoned query it has not started, and every call after close, none of them retryably", async () => {
    const embedder = model("refusing");
    await expect(embedder.embed(["  "], "document")).rejects.toMatchObject({ name: "EmbeddingError", retryable: false });
    const abandoned = new AbortController();
    abandoned.abort();
    await expect(embedder.embed(["argo"], "query", abandoned.signal)).rejects.toMatchObject({ retryable: false, message: /stopped waiting/ });
    await embedder.close();
    await expect(embedder.embed(["argo"], "document")).rejects.toMatchObject({ retryable: false, message: /closed/ });
  });

  it("says which file ONNX Runtime could not load, as a failure to try again soon", async () => {
    const embedder = model("broken");
    fs.writeFileSync(path.join(root, "broken", "onnx", "model.onnx"), "not a model");
    await expect(embedder.embed(["argo"], "document")).rejects.toMatchObject({ retryable: true, message: /cannot load .*broken\/onnx\/model\.onnx/ });
  });
});
