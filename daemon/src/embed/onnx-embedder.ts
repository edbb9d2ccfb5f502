import os from "node:os";
import { Tokenizer } from "@huggingface/tokenizers";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import { type Embedder, EmbedderSetupError, EmbeddingError, type EmbeddingPurpose, type EmbeddingSpace } from "./embedder.js";
import { DEFAULT_KEEP_ALIVE_MS, ModelLoads } from "./model-residency.js";
import type { OnnxModelSpec } from "./onnx-model-dir.js";
import { poolSentences } from "./pooling.js";
import { prepareTexts } from "./prepare-texts.js";

/** What memd uses of onnxruntime-node: loaded only when an ONNX model is chosen. */
export interface OnnxRuntime {
  InferenceSession: { create(path: string, options?: InferenceSession.SessionOptions): Promise<InferenceSession> };
  Tensor: new (type: "int64", data: BigInt64Array, dims: readonly number[]) => Tensor;
}

export interface OnnxEmbedderOptions {
  /** Threads ONNX Runtime computes with. Default: 2, or 1 on a one-core machine. */
  threads?: number;
  /**
   * Texts run through the model at once, similar lengths together. Default 8: every text of a
   * batch is padded to its longest, and on the benchmark's memories (9 to 130 tokens) batches of
   * 8 embedded 354 a second, of 16 287, of 32 182, of 4 338 (npm run bench -- --only onnx).
   */
  batchSize?: number;
  /** How long the loaded model stays in memory with nothing to do (see DEFAULT_KEEP_ALIVE_MS). */
  keepAliveMs?: number;
}

/**
 * onnxruntime-node, or EmbedderSetupError saying how to get it. It is an optional dependency:
 * its install script fetches a CUDA provider from NuGet, which fails where only the npm
 * registry is reachable, and npm then leaves the package out instead of failing the install.
 */
export async function loadOnnxRuntime(): Promise<OnnxRuntime> {
  try {
    return (await import("onnxruntime-node")) as unknown as OnnxRuntime;
  } catch (error) {
    throw new EmbedderSetupError(
      "onnxruntime-node is not installed, so ONNX models cannot run: reinstall memd with " +
        "`npm install --global --allow-scripts=better-sqlite3 --onnxruntime-node-install=skip <memd tarball>` " +
        `(${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
}

/** About four characters a token: longer texts lose their end to the token limit anyway. */
const CHARS_PER_TOKEN = 4;

interface Call {
  vectors: (Float32Array | undefined)[];
  remaining: number;
  failed: boolean;
  abandoned: AbortSignal | undefined;
  resolve(vectors: Float32Array[]): void;
  reject(error: EmbeddingError): void;
}

/** Texts of one call run through the model together, each with where its vector goes. */
interface Batch {
  call: Call;
  positions: number[];
  encodings: { ids: number[]; mask: number[] }[];
}

/**
 * A sentence-transformers model exported to ONNX, run in-process by ONNX Runtime (which
 * computes on its own threads, so the event loop only tokenizes and pools). Work goes in
 * batches of similar-length texts; query batches go ahead of documents.
 */
export function createOnnxEmbedder(spec: OnnxModelSpec, ort: OnnxRuntime, options: OnnxEmbedderOptions = {}): Embedder {
  const threads = Math.max(1, options.threads ?? Math.min(2, os.availableParallelism()));
  const batchSize = Math.max(1, options.batchSize ?? 8);
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(spec.tokenizer, spec.tokenizerConfig);
  } catch (error) {
    throw new EmbedderSetupError(`${spec.dir}/tokenizer.json cannot be loaded: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const space: EmbeddingSpace = { provider: "onnx", model: spec.name, dimensions: spec.dimensions };
  const maxInputChars = spec.maxTokens * CHARS_PER_TOKEN;
  const queues: Record<EmbeddingPurpose, Batch[]> = { query: [], document: [] };
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const loads = new ModelLoads();
  let session: Promise<InferenceSession> | undefined;
  let unloadTimer: NodeJS.Timeout | undefined;
  let running = false;
  let closed = false;

  // A failed load is forgotten, so the next batch loads again: the pipeline retries it after 1 s, 2 s, 4 s...
  const openSession = () => {
    if (session) return session;
    loads.loading();
    const opening = ort.InferenceSession.create(spec.modelFile, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: "all",
      executionProviders: ["cpu"],
    }).then(
      (loaded) => {
        loads.loaded();
        return loaded;
      },
      (error: unknown) => {
        const message = `ONNX Runtime cannot load ${spec.modelFile}: ${error instanceof Error ? error.message : String(error)}`;
        loads.failed(message);
        if (session === opening) session = undefined;
        throw new EmbeddingError(message, true, { cause: error });
      },
    );
    session = opening;
    return opening;
  };

  /** Releases the model once it has had nothing to do for keepAliveMs; the next batch loads it again. */
  function unloadWhenIdle(): void {
    clearTimeout(unloadTimer);
    unloadTimer = setTimeout(() => {
      const open = session;
      if (running || !open) return;
      session = undefined;
      loads.unloaded();
      void open.then((s) => s.release(), () => undefined);
    }, keepAliveMs).unref();
  }

  function encode(text: string): { ids: number[]; mask: number[] } {
    const { ids, attention_mask: mask } = tokenizer.encode(text);
    if (ids.length <= spec.maxTokens) return { ids, mask };
    // Keep the leading special token and the closing one: the model was trained with both.
    return { ids: [...ids.slice(0, spec.maxTokens - 1), ids[ids.length - 1] as number], mask: mask.slice(0, spec.maxTokens) };
  }

  function fail(call: Call, error: EmbeddingError): void {
    if (call.failed) return;
    call.failed = true;
    call.reject(error);
  }

  async function runBatch(batch: Batch): Promise<void> {
    const { call } = batch;
    if (call.failed) return;
    if (call.abandoned?.aborted) {
      fail(call, new EmbeddingError("the caller stopped waiting for this embedding", false));
      return;
    }
    const loaded = await openSession();
    const rows = batch.encodings.length;
    const sequence = Math.max(...batch.encodings.map((e) => e.ids.length));
    const ids = new BigInt64Array(rows * sequence);
    const mask = new BigInt64Array(rows * sequence);
    batch.encodings.forEach((e, row) => {
      e.ids.forEach((id, t) => {
        ids[row * sequence + t] = BigInt(id);
        mask[row * sequence + t] = BigInt(e.mask[t] ?? 1);
      });
    });
    const feeds: Record<string, Tensor> = { input_ids: new ort.Tensor("int64", ids, [rows, sequence]), attention_mask: new ort.Tensor("int64", mask, [rows, sequence]) };
    if (loaded.inputNames.includes("token_type_ids")) feeds.token_type_ids = new ort.Tensor("int64", new BigInt64Array(rows * sequence), [rows, sequence]);
    let output: Tensor;
    try {
      const results = await loaded.run(feeds);
      output = (results.last_hidden_state ?? results[loaded.outputNames[0] as string]) as Tensor;
    } catch (error) {
      throw new EmbeddingError(`the ONNX model failed on a batch of ${rows}: ${error instanceof Error ? error.message : String(error)}`, false, { cause: error });
    }
    const dims = output.dims;
    const width = dims[dims.length - 1] as number;
    if (width !== spec.dimensions) throw new EmbeddingError(`the ONNX model returned ${width}-dimensional vectors where ${spec.dimensions} were expected`, false);
    // A model that pools itself answers [batch, width]; otherwise the token vectors are pooled here.
    const vectors =
      dims.length === 2
        ? poolSentences(output.data as Float32Array, rows, 1, width, batch.encodings.map(() => [1]), "cls")
        : poolSentences(output.data as Float32Array, rows, sequence, width, batch.encodings.map((e) => e.mask), spec.pooling);
    vectors.forEach((vector, i) => {
      call.vectors[batch.positions[i] as number] = vector;
    });
    call.remaining -= rows;
    if (call.remaining === 0 && !call.failed) call.resolve(call.vectors as Float32Array[]);
  }

  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    clearTimeout(unloadTimer);
    try {
      for (;;) {
        const batch = queues.query.shift() ?? queues.document.shift();
        if (!batch) return;
        await runBatch(batch).catch((error: unknown) =>
          fail(batch.call, error instanceof EmbeddingError ? error : new EmbeddingError(String(error), false, { cause: error })),
        );
      }
    } finally {
      running = false;
      if (!closed) unloadWhenIdle();
    }
  }

  return {
    space,
    maxInputChars,
    residency: () => loads.residency(),
    embed(texts, purpose, abandoned) {
      if (closed) return Promise.reject(new EmbeddingError("the ONNX embedder is closed", false));
      let prepared: string[];
      try {
        const prefix = spec.prefixes[purpose];
        prepared = prepareTexts(texts, maxInputChars).map((text) => `${prefix}${text}`);
      } catch (error) {
        return Promise.reject(error);
      }
      if (prepared.length === 0) return Promise.resolve([]);
      return new Promise<Float32Array[]>((resolve, reject) => {
        const call: Call = { vectors: new Array(prepared.length), remaining: prepared.length, failed: false, abandoned, resolve, reject };
        const encoded = prepared.map((text, position) => ({ position, encoding: encode(text) }));
        // Similar lengths together: padding is computed like any token.
        encoded.sort((a, b) => a.encoding.ids.length - b.encoding.ids.length);
        for (let i = 0; i < encoded.length; i += batchSize) {
          const part = encoded.slice(i, i + batchSize);
          queues[purpose].push({ call, positions: part.map((p) => p.position), encodings: part.map((p) => p.encoding) });
        }
        void drain();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(unloadTimer);
      for (const batch of [...queues.query.splice(0), ...queues.document.splice(0)]) fail(batch.call, new EmbeddingError("the ONNX embedder is closed", false));
      const open = session;
      session = undefined;
      if (open) await open.then((s) => s.release(), () => undefined);
    },
  };
}
