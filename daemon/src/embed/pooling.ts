/**
 * Sentence vectors from a transformer's token vectors: the mean over the tokens the attention
 * mask keeps (padding never counts), or the first token's ([CLS]), scaled to unit length.
 */
export function poolSentences(hidden: Float32Array, batch: number, sequence: number, width: number, mask: readonly (readonly number[])[], mode: "mean" | "cls"): Float32Array[] {
  const vectors: Float32Array[] = [];
  for (let b = 0; b < batch; b += 1) {
    const vector = new Float32Array(width);
    const rowMask = mask[b] ?? [];
    let kept = 0;
    for (let t = 0; t < (mode === "cls" ? 1 : sequence); t += 1) {
      if (mode === "mean" && !rowMask[t]) continue;
      kept += 1;
      const offset = (b * sequence + t) * width;
      for (let i = 0; i < width; i += 1) vector[i] = (vector[i] as number) + (hidden[offset + i] as number);
    }
    let norm = 0;
    for (let i = 0; i < width; i += 1) norm += (vector[i] as number) ** 2;
    const scale = kept > 0 && norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < width; i += 1) vector[i] = (vector[i] as number) * scale;
    vectors.push(vector);
  }
  return vectors;
}
