import { type Embedder, EmbedderSetupError } from "./embedder.js";

/**
 * Documents by one embedder, queries by another, in the documents' space: the full encoder
 * embeds memories in the background, and the static table, whose rows are that encoder's own
 * outputs, embeds a query in microseconds. The two must give vectors of the same size; whether
 * they are close enough to compare is what bench:recall measures (MEMD_EMBEDDER=asymmetric).
 */
export function createAsymmetricEmbedder(documents: Embedder, queries: Embedder): Embedder {
  if (documents.space.dimensions !== queries.space.dimensions) {
    throw new EmbedderSetupError(
      `queries of ${queries.space.dimensions} dimensions cannot search documents of ${documents.space.dimensions}: the asymmetric embedder needs one size`,
    );
  }
  return {
    space: documents.space,
    maxInputChars: documents.maxInputChars,
    residency: documents.residency?.bind(documents),
    embed: (texts, purpose, abandoned) => (purpose === "query" ? queries : documents).embed(texts, purpose, abandoned),
    async close() {
      await Promise.all([documents.close(), queries.close()]);
    },
  };
}
