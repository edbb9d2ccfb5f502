/**
 * The Universal Sentence Encoder lite graph drops every token past position 128
 * (its ClipToMaxLength node), so a longer text is embedded as windows of 128 tokens whose
 * vectors are averaged. These are the pure parts of that: windows, batches, weighted sums.
 */
export const USE_WINDOW_TOKENS = 128;
export const USE_DIMENSIONS = 512;

/** Splits token ids into consecutive windows of at most `size` tokens. */
export function splitIntoWindows(ids: readonly number[], size: number): number[][] {
  const windows: number[][] = [];
  for (let i = 0; i < ids.length; i += size) windows.push(ids.slice(i, i + size));
  return windows;
}

/**
 * Groups sequences into model calls, shortest first so that each call pads little: the model
 * pads every sequence of a call to the longest, and its cost grows with the padded size. A call
 * holds at most `maxCount` sequences and, past the first, at most `tokenBudget` padded tokens.
 * Returns indices into `lengths`.
 */
export function planBatches(lengths: readonly number[], tokenBudget: number, maxCount: number): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => (lengths[a] as number) - (lengths[b] as number));
  const batches: number[][] = [];
  let current: number[] = [];
  for (const i of order) {
    const longest = lengths[i] as number;
    if (current.length > 0 && (current.length >= maxCount || (current.length + 1) * longest > tokenBudget)) {
      batches.push(current);
      current = [];
    }
    current.push(i);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** sum += weight × source[offset .. offset + sum.length). */
export function addScaled(sum: Float32Array, source: Float32Array, offset: number, weight: number): void {
  for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) + weight * (source[offset + d] as number);
}
