import { TopScores } from "../daemon/src/vectors/top-scores.js";

/**
 * The true k nearest neighbours by dot product (cosine, for unit vectors) of each query among
 * the vectors at `positions` (all of the first `count` when omitted), by brute force. Four
 * queries share each pass over the data, so a vector is loaded once per four dot products.
 */
export function exactNeighbours(
  data: Float32Array,
  dimensions: number,
  count: number,
  queries: readonly Float32Array[],
  k: number,
  positions?: Int32Array,
): Int32Array[] {
  const results: Int32Array[] = [];
  const n = positions?.length ?? count;
  for (let first = 0; first < queries.length; first += 4) {
    const block = queries.slice(first, first + 4);
    const [q0, q1, q2, q3] = [0, 1, 2, 3].map((i) => block[i] ?? new Float32Array(dimensions)) as [
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
    ];
    const [t0, t1, t2, t3] = [0, 1, 2, 3].map(() => new TopScores(k)) as [TopScores, TopScores, TopScores, TopScores];
    for (let j = 0; j < n; j += 1) {
      const i = positions === undefined ? j : (positions[j] as number);
      const o = i * dimensions;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let d = 0; d < dimensions; d += 1) {
        const x = data[o + d] as number;
        s0 += x * (q0[d] as number);
        s1 += x * (q1[d] as number);
        s2 += x * (q2[d] as number);
        s3 += x * (q3[d] as number);
      }
      if (s0 > t0.floor) t0.push(s0, i);
      if (s1 > t1.floor) t1.push(s1, i);
      if (s2 > t2.floor) t2.push(s2, i);
      if (s3 > t3.floor) t3.push(s3, i);
    }
    const tops = [t0, t1, t2, t3].slice(0, block.length);
    for (const top of tops) results.push(top.itemsBestFirst());
  }
  return results;
}
