import type { EmbeddingSpace } from "./embedder.js";
import type { PipelineState } from "./embedding-pipeline.js";
import type { ModelResidency } from "./model-residency.js";

/** What Health and Stats report about embeddings. */
export interface EmbeddingStatus {
  space: EmbeddingSpace;
  reason: string;
  state: PipelineState;
  queueDepth: number;
  lastError: string;
  reindexing: boolean;
  /** The embedder's model (the one that fills the queue), where memd loads it itself; null where another process holds it. */
  model: ModelResidency | null;
}

/** Progress of a rebuild, as the Reindex RPC streams it. */
export interface ReindexProgress {
  done: number;
  total: number;
  lastError: string;
}
