export const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";
export const DEFAULT_OLLAMA_MODEL = "nomic-embed-text";

/** What memd knows about an Ollama embedding model without asking Ollama. */
export interface KnownOllamaModel {
  dimensions: number;
  /** Prepended to stored memories: the task prefix the model was trained with, or "". */
  documentPrefix: string;
  /** Prepended to searches. */
  queryPrefix: string;
}

// Only models whose every tag has the same size are listed; for others the size comes from
// `ollama show` or the dimensions option.
const KNOWN: Record<string, KnownOllamaModel> = {
  "nomic-embed-text": { dimensions: 768, documentPrefix: "search_document: ", queryPrefix: "search_query: " },
  "mxbai-embed-large": {
    dimensions: 1024,
    documentPrefix: "",
    queryPrefix: "Represent this sentence for searching relevant passages: ",
  },
  "all-minilm": { dimensions: 384, documentPrefix: "", queryPrefix: "" },
};

/** The model's name without the implied ":latest" tag, as memd records it in the embedding space. */
export function ollamaModelName(model: string): string {
  return model.trim().replace(/:latest$/, "");
}

/** Ollama lists "nomic-embed-text:latest" for a model pulled as "nomic-embed-text". */
export function sameOllamaModel(a: string, b: string): boolean {
  return ollamaModelName(a) === ollamaModelName(b);
}

export function knownOllamaModel(model: string): KnownOllamaModel | undefined {
  const name = ollamaModelName(model);
  return KNOWN[name] ?? KNOWN[name.replace(/:.*$/, "")];
}
