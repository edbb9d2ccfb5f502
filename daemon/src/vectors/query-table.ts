/**
 * Scores codes against a full-precision query, given what each bit is worth (`queryWeights`).
 * For each byte position of a code the table holds, for all 256 byte values, the sum of
 * +weight over the byte's set bits and -weight over its clear ones; a code's score is then one
 * lookup per byte instead of a float per dimension, which is what makes the second pass cheap
 * enough for thousands of candidates.
 */
export function buildQueryTable(weights: Float64Array, wordsPerCode: number): Float64Array {
  const positions = wordsPerCode * 4;
  const table = new Float64Array(positions * 256);
  for (let p = 0; p < positions; p += 1) {
    const base = p * 256;
    let allClear = 0;
    for (let bit = 0; bit < 8; bit += 1) allClear -= weights[p * 8 + bit] ?? 0;
    table[base] = allClear;
    for (let value = 1; value < 256; value += 1) {
      // Built from the value with its lowest set bit cleared: flipping that bit from - to +.
      const lowest = value & -value;
      const bit = 31 - Math.clz32(lowest);
      table[base + value] = (table[base + (value ^ lowest)] as number) + 2 * (weights[p * 8 + bit] ?? 0);
    }
  }
  return table;
}

/** The sum of table entries for one code's words `codes[offset .. offset + words)`, starting at byte position `firstPosition`. */
export function tableSum(table: Float64Array, codes: Int32Array, offset: number, words: number, firstPosition: number): number {
  let sum = 0;
  let base = firstPosition * 256;
  for (let w = 0; w < words; w += 1, base += 1024) {
    const x = codes[offset + w] as number;
    sum +=
      (table[base + (x & 255)] as number) +
      (table[base + 256 + ((x >>> 8) & 255)] as number) +
      (table[base + 512 + ((x >>> 16) & 255)] as number) +
      (table[base + 768 + (x >>> 24)] as number);
  }
  return sum;
}
