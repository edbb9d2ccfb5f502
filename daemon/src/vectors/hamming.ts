/** Set bits in a 32-bit word (SWAR: no 64-bit integers or popcount instruction in plain JS). */
export function popcount32(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Hamming distances between `query` and each of `count` codes of `words` words (at most 6)
 * laid out one after another in `codes`, written to `out` from `outOffset`; `histogram[d]`
 * is increased by the number of codes at distance d, which later finds the cut-off distance
 * without sorting.
 */
export function prefixDistances(
  codes: Int32Array,
  count: number,
  words: number,
  query: Int32Array,
  out: Uint8Array,
  outOffset: number,
  histogram: Int32Array,
): void {
  if (words === 6) {
    prefixDistances6(codes, count, query, out, outOffset, histogram);
    return;
  }
  for (let i = 0; i < count; i += 1) {
    let distance = 0;
    for (let w = 0; w < words; w += 1) distance += popcount32((codes[i * words + w] as number) ^ (query[w] as number));
    out[outOffset + i] = distance;
    histogram[distance] = (histogram[distance] as number) + 1;
  }
}

/**
 * The hot loop of every large search, unrolled (1.6 times faster than a loop over the words in
 * V8): the per-byte counts of the six words are summed before the one multiply that adds up
 * the bytes, each byte staying below 256.
 */
function prefixDistances6(
  codes: Int32Array,
  count: number,
  query: Int32Array,
  out: Uint8Array,
  outOffset: number,
  histogram: Int32Array,
): void {
  const q0 = query[0] as number;
  const q1 = query[1] as number;
  const q2 = query[2] as number;
  const q3 = query[3] as number;
  const q4 = query[4] as number;
  const q5 = query[5] as number;
  for (let i = 0, o = 0; i < count; i += 1, o += 6) {
    const bytes =
      byteCounts((codes[o] as number) ^ q0) +
      byteCounts((codes[o + 1] as number) ^ q1) +
      byteCounts((codes[o + 2] as number) ^ q2) +
      byteCounts((codes[o + 3] as number) ^ q3) +
      byteCounts((codes[o + 4] as number) ^ q4) +
      byteCounts((codes[o + 5] as number) ^ q5);
    const distance = Math.imul(bytes, 0x01010101) >>> 24;
    out[outOffset + i] = distance;
    histogram[distance] = (histogram[distance] as number) + 1;
  }
}

/** The set bits of each byte of a word, in that byte (0-8). */
function byteCounts(word: number): number {
  let x = (word - ((word >>> 1) & 0x55555555)) | 0;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (x + (x >>> 4)) & 0x0f0f0f0f;
}
