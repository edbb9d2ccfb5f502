import type { EmbeddingSpace } from "./embedder.js";
import type { PipelineState } from "./embedding-pipeline.js";

/** What Health and Stats report about embeddings. */
export interface EmbeddingStatus {
  space: EmbeddingSpace;
  reason: string;
  state: PipelineState;
  queueDepth: number;
  lastError: string;
  reindexing: boolean;
}

/** Progress of a rebuild, as the Reindex RPC streams it. */
export interface ReindexProgress {
  done: number;
  total: number;
  lastError: string;
}
