import { bm25Term } from "./bm25.js";
import type { PostingList } from "./posting-list.js";

/**
 * Relative slack for comparing bounds with scores: a row's score is a rounded sum of its
 * phrases' terms in query order, while bounds and partial scores are summed in other orders,
 * which may differ by a few units in the last place (about 1e-16 each). A slack far above that
 * keeps every pruning decision on the safe side, and costs nothing but exact near-ties.
 */
const SLACK = 1e-9;

/**
 * The most any posting of the list can add to a row's score: bm25Term grows with the frequency
 * and shrinks with the row's length, in floating point too (each rounding step is monotone).
 */
export function termBound(idf: number, list: PostingList, averageLength: number): number {
  return list.size === 0 ? 0 : bm25Term(idf, list.maxFrequency, list.minLength, averageLength);
}

/** At least the rounded sum, in any order, of the terms that `sum` adds up in some order. */
export function roundedUp(sum: number): number {
  return sum * (1 + SLACK);
}

/** At most the rounded sum, in any order, of the terms that `sum` adds up and of any further ones (terms are never negative). */
export function roundedDown(sum: number): number {
  return sum * (1 - SLACK);
}

/** The k-th largest of values[0..count) (1 <= k <= count), found by selection; reorders them. */
export function kthLargest(values: Float64Array, count: number, k: number): number {
  const target = k - 1;
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const pivot = values[(low + high) >>> 1] as number;
    let i = low;
    let j = high;
    while (i <= j) {
      while ((values[i] as number) > pivot) i++;
      while ((values[j] as number) < pivot) j--;
      if (i <= j) {
        const swap = values[i] as number;
        values[i] = values[j] as number;
        values[j] = swap;
        i++;
        j--;
      }
    }
    // Now values[low..j] >= pivot >= values[i..high], and everything between equals the pivot.
    if (target <= j) high = j;
    else if (target >= i) low = i;
    else return pivot;
  }
  return values[target] as number;
}
