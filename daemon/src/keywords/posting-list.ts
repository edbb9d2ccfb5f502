/** The rows holding one term, in slot order, grown by doubling. */
export interface PostingList {
  slots: Int32Array;
  /** The term's weighted frequency in each row (the sum of its columns' weights per occurrence). */
  frequencies: Float64Array;
  size: number;
  /** Rows still indexed among these; the IDF counts them. */
  live: number;
}

/** Appends a row's posting; slots only ever grow, so the list stays in slot order. */
export function appendPosting(list: PostingList, slot: number, frequency: number): void {
  if (list.size === list.slots.length) {
    list.slots = grow(list.slots, new Int32Array(list.size * 2));
    list.frequencies = grow(list.frequencies, new Float64Array(list.size * 2));
  }
  list.slots[list.size] = slot;
  list.frequencies[list.size] = frequency;
  list.size += 1;
  list.live += 1;
}

/** Copies a typed array into a larger one. */
export function grow<T extends Int32Array | Uint32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
