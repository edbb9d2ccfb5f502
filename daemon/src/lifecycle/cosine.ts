/** An embedding: a plain array or a typed array as read from the vector store. */
export type Vector = ArrayLike<number>;

/**
 * Cosine similarity in [-1, 1]. Vectors of different lengths come from different embedding
 * models and are not comparable, so they (and zero vectors) score 0 rather than throwing.
 */
export function cosineSimilarity(a: Vector, b: Vector): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return 0;
  return Math.min(1, Math.max(-1, dot / Math.sqrt(normA * normB)));
}
