import { type Embedder, EmbedderSetupError, EmbeddingError, type EmbeddingPurpose, type EmbeddingSpace } from "./embedder.js";
import { createOllamaClient, ollamaFailure } from "./ollama-client.js";
import { DEFAULT_OLLAMA_HOST, DEFAULT_OLLAMA_MODEL, knownOllamaModel, ollamaModelName } from "./ollama-models.js";
import { chunksOf, prepareTexts } from "./prepare-texts.js";
import { toUnitVectors } from "./unit-vectors.js";

export interface OllamaEmbedderOptions {
  /** Where Ollama listens (OLLAMA_HOST); "host:port" without a scheme is accepted. Default http://127.0.0.1:11434. */
  host?: string;
  /** Default nomic-embed-text. */
  model?: string;
  /** Required for models memd does not know (see ollama-models.ts) unless learnt from `ollama show`. */
  dimensions?: number;
  /** Per request. The first call after Ollama starts loads the model, which takes seconds. Default 60 000. */
  timeoutMs?: number;
  /** Texts per POST /api/embed. Default 64. */
  batchSize?: number;
  /** Default 8192; Ollama itself truncates to the model's context (truncate: true). */
  maxInputChars?: number;
  /** How long Ollama keeps the model loaded after a call (its keep_alive). Default Ollama's own. */
  keepAlive?: string | number;
}

// About 2 000 tokens of English: nomic-embed-text's default context in Ollama.
const DEFAULT_MAX_INPUT_CHARS = 8192;

/**
 * Embeds through a local (or explicitly configured) Ollama server, adding the task prefixes the
 * model expects, in batches of `batchSize`. It never retries by itself: errors say whether a
 * retry may help, and the pipeline decides when.
 */
export function createOllamaEmbedder(options: OllamaEmbedderOptions = {}): Embedder {
  const host = options.host ?? DEFAULT_OLLAMA_HOST;
  const model = ollamaModelName(options.model ?? DEFAULT_OLLAMA_MODEL);
  const known = knownOllamaModel(model);
  const dimensions = options.dimensions ?? known?.dimensions;
  if (dimensions === undefined) {
    throw new EmbedderSetupError(
      `memd does not know how many dimensions the ollama model ${model} has and could not ask ollama at ${host}: start ollama, or set the dimensions`,
    );
  }
  const prefixes: Record<EmbeddingPurpose, string> = {
    document: known?.documentPrefix ?? "",
    query: known?.queryPrefix ?? "",
  };
  const timeoutMs = options.timeoutMs ?? 60_000;
  const batchSize = options.batchSize ?? 64;
  const maxInputChars = options.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS;
  const closing = new AbortController();
  const client = createOllamaClient(host, timeoutMs, closing.signal);
  const space: EmbeddingSpace = { provider: "ollama", model, dimensions };

  return {
    space,
    maxInputChars,
    async embed(texts: readonly string[], purpose: EmbeddingPurpose): Promise<Float32Array[]> {
      if (closing.signal.aborted) throw new EmbeddingError("the ollama embedder was closed", false);
      const inputs = prepareTexts(texts, maxInputChars).map((text) => prefixes[purpose] + text);
      const vectors: Float32Array[] = [];
      for (const batch of chunksOf(inputs, batchSize)) {
        let embeddings: unknown;
        try {
          ({ embeddings } = await client.embed({ model, input: batch, truncate: true, keep_alive: options.keepAlive }));
        } catch (error) {
          throw ollamaFailure(error, host, model, timeoutMs, closing.signal);
        }
        vectors.push(...toUnitVectors(embeddings, { count: batch.length, dimensions, source: `ollama model ${model} at ${host}` }));
      }
      return vectors;
    },
    async close(): Promise<void> {
      closing.abort();
    },
  };
}
