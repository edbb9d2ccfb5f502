/**
 * Universal Sentence Encoder lite's graph as tfjs runs it: the one call both the local worker
 * (which embeds texts) and the static table's distillation (which embeds every vocabulary
 * piece alone) make. Loading tfjs and the weights costs 150-200 MB, so only those import this.
 */
import * as tf from "@energetic-ai/core";
import { USE_DIMENSIONS } from "./use-lite-windows.js";

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
/** The loaded graph (EmbeddingsModel.model). */
export interface UseGraph {
  executeAsync(inputs: Record<string, Tensor>): Promise<Tensor>;
}

const tfjs = tf as unknown as Tfjs;

/**
 * One call of the graph on a batch of token sequences, as its sparse input (row, position) → id:
 * `USE_DIMENSIONS` values per sequence, in order.
 */
export async function runUseGraph(graph: UseGraph, sequences: readonly (readonly number[])[]): Promise<Float32Array> {
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
