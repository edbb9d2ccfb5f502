import { resized } from "../typed-arrays.js";

/** The rows holding one term, in slot order, grown by doubling. */
export interface PostingList {
  slots: Int32Array;
  /** The term's weighted frequency in each row (the sum of its columns' weights per occurrence). */
  frequencies: Float64Array;
  size: number;
  /** Rows still indexed among these; the IDF counts them. */
  live: number;
  /**
   * The highest frequency and the shortest row length among the postings, dead ones included
   * (deleting never lowers them), so that they bound what any posting can score (see score-bounds.ts).
   */
  maxFrequency: number;
  minLength: number;
}

export function emptyPostingList(capacity: number): PostingList {
  return { slots: new Int32Array(capacity), frequencies: new Float64Array(capacity), size: 0, live: 0, maxFrequency: 0, minLength: Infinity };
}

/** Appends a row's posting; slots only ever grow, so the list stays in slot order. */
export function appendPosting(list: PostingList, slot: number, frequency: number, rowLength: number): void {
  if (list.size === list.slots.length) {
    list.slots = resized(list.slots, Math.max(4, list.size * 2));
    list.frequencies = resized(list.frequencies, Math.max(4, list.size * 2));
  }
  list.slots[list.size] = slot;
  list.frequencies[list.size] = frequency;
  list.size += 1;
  list.live += 1;
  if (frequency > list.maxFrequency) list.maxFrequency = frequency;
  if (rowLength < list.minLength) list.minLength = rowLength;
}

/**
 * The first index at or after `from` whose slot is at least `slot` (the size when there is
 * none): galloping, so that a walk of ascending slots through a long list costs about the log
 * of each gap instead of every posting in between.
 */
export function seekSlot(list: PostingList, slot: number, from: number): number {
  const { slots, size } = list;
  if (from >= size || (slots[from] as number) >= slot) return from;
  let low = from;
  let step = 1;
  let high = from + 1;
  while (high < size && (slots[high] as number) < slot) {
    low = high;
    step *= 2;
    high = from + step;
  }
  if (high > size) high = size;
  // slots[low] < slot, and slots[high] >= slot or high is the size.
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if ((slots[middle] as number) < slot) low = middle;
    else high = middle;
  }
  return high;
}
