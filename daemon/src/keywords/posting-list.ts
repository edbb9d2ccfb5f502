import { resized } from "../typed-arrays.js";

/**
 * The distinct weighted frequencies of an index's postings, each kept once: a posting holds its
 * frequency's number in 2 bytes where a Float64Array held the value in 8 (a third of the keyword
 * index's memory at 100k memories), and an index has only hundreds of distinct frequencies,
 * sums of a few column weights. The values are exactly those given, so scores do not change.
 */
export class FrequencyTable {
  values = new Float64Array(64);
  private readonly numbers = new Map<number, number>();

  /** The value's number, given it on first sight. */
  numberOf(value: number): number {
    let number = this.numbers.get(value);
    if (number === undefined) {
      number = this.numbers.size;
      if (number === this.values.length) this.values = resized(this.values, number * 2);
      this.values[number] = value;
      this.numbers.set(value, number);
    }
    return number;
  }
}

/** Frequency numbers fit this type until the table holds more than 65,536 of them; a list given a larger one widens. */
type FrequencyNumbers = Uint16Array | Uint32Array;

/** The rows holding one term, in slot order, grown by half (doubling left a third of all postings' room unused on average). */
export interface PostingList {
  slots: Int32Array;
  /**
   * The term's weighted frequency in each row (the sum of its columns' weights per occurrence),
   * as its number in `table`: `table.values[frequencies[i]]` (see frequencyAt).
   */
  frequencies: FrequencyNumbers;
  table: FrequencyTable;
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

export function emptyPostingList(capacity: number, table: FrequencyTable): PostingList {
  return { slots: new Int32Array(capacity), frequencies: new Uint16Array(capacity), table, size: 0, live: 0, maxFrequency: 0, minLength: Infinity };
}

/** The weighted frequency of the list's i-th posting. */
export function frequencyAt(list: PostingList, i: number): number {
  return list.table.values[list.frequencies[i] as number] as number;
}

/** Appends a row's posting; slots only ever grow, so the list stays in slot order. */
export function appendPosting(list: PostingList, slot: number, frequency: number, rowLength: number): void {
  if (list.size === list.slots.length) {
    const capacity = Math.max(4, Math.ceil(list.size * 1.5));
    list.slots = resized(list.slots, capacity);
    list.frequencies = resized(list.frequencies, capacity);
  }
  const number = list.table.numberOf(frequency);
  if (number > 0xffff && list.frequencies instanceof Uint16Array) list.frequencies = Uint32Array.from(list.frequencies);
  list.slots[list.size] = slot;
  list.frequencies[list.size] = number;
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
