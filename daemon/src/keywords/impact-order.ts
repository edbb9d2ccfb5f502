import { bm25Term } from "./bm25.js";
import { resized } from "../typed-arrays.js";
import { frequencyAt, type PostingList } from "./posting-list.js";

/**
 * Postings of one frequency, shortest row first (then lowest seq): best score first at any
 * average length. Postings added since the last search wait, unsorted, in `pending`: sorting
 * each one into place would move half the group per added row.
 */
interface Group {
  frequency: number;
  sorted: Run;
  pending: Run;
}

/** Slots with their rows' lengths and seqs, side by side. */
interface Run {
  slots: Int32Array;
  lengths: Int32Array;
  seqs: Float64Array;
  size: number;
}

/** What the index knows of a slot, to order postings. */
export interface SlotFacts {
  lengths: Int32Array;
  seqs: Float64Array;
}

/**
 * A long posting list in the order of what its postings score, for a search by that one term:
 * the score of a posting grows with its frequency and falls with its row's length, so within
 * one frequency the shortest rows come first whatever the average length, and merging the
 * frequencies' groups yields every posting best first, ties by seq, exactly as ranking the
 * whole list would order them. Such a search then reads about as many postings as it keeps,
 * instead of tens of thousands. Rows added later are sorted in at the next search; a deleted
 * row stays (the index skips its slot) until the index compacts.
 */
export class ImpactOrder {
  private readonly groups: Group[] = [];

  constructor(list: PostingList, facts: SlotFacts, live: (slot: number) => boolean) {
    for (let i = 0; i < list.size; i++) {
      const slot = list.slots[i] as number;
      if (live(slot)) this.add(slot, frequencyAt(list, i), facts.lengths[slot] as number, facts.seqs[slot] as number);
    }
  }

  /** Adds a new row's posting; it takes its place at the next visit. */
  add(slot: number, frequency: number, length: number, seq: number): void {
    let group = this.groups.find((candidate) => candidate.frequency === frequency);
    if (group === undefined) {
      group = { frequency, sorted: emptyRun(0), pending: emptyRun(16) };
      this.groups.push(group);
    }
    append(group.pending, slot, length, seq);
  }

  /**
   * Hands postings to `take`, best first (score as bm25Term gives it, then lowest seq), until
   * it returns true (it has all it wants) or `budget` postings have been handed over; returns
   * whether `take` was satisfied or the list ran out, false when the budget ran out first.
   */
  visit(idf: number, averageLength: number, budget: number, take: (slot: number, score: number) => boolean): boolean {
    for (const group of this.groups) settle(group);
    const runs = this.groups.map((group) => group.sorted);
    const frequencies = this.groups.map((group) => group.frequency);
    const at = new Int32Array(runs.length);
    const scores = new Float64Array(runs.length);
    // A heap of the runs not yet used up, keyed by their next posting: best score, then lowest seq.
    const heap: number[] = [];
    const ahead = (a: number, b: number) =>
      (scores[a] as number) > (scores[b] as number) ||
      (scores[a] === scores[b] && ((runs[a] as Run).seqs[at[a] as number] as number) < ((runs[b] as Run).seqs[at[b] as number] as number));
    const score = (r: number) => bm25Term(idf, frequencies[r] as number, (runs[r] as Run).lengths[at[r] as number] as number, averageLength);
    runs.forEach((run, r) => {
      if (run.size === 0) return;
      scores[r] = score(r);
      heap.push(r);
      siftUp(heap, heap.length - 1, ahead);
    });
    for (let handed = 0; heap.length > 0; handed++) {
      if (handed >= budget) return false;
      const r = heap[0] as number;
      const run = runs[r] as Run;
      const position = at[r] as number;
      if (take(run.slots[position] as number, scores[r] as number)) return true;
      at[r] = position + 1;
      if (position + 1 < run.size) {
        scores[r] = score(r);
      } else {
        heap[0] = heap[heap.length - 1] as number;
        heap.pop();
      }
      siftDown(heap, 0, ahead);
    }
    return true;
  }
}

function emptyRun(capacity: number): Run {
  return { slots: new Int32Array(capacity), lengths: new Int32Array(capacity), seqs: new Float64Array(capacity), size: 0 };
}

/** Appends at the end, growing the run's arrays by doubling. */
function append(run: Run, slot: number, length: number, seq: number): void {
  if (run.size === run.slots.length) {
    const capacity = Math.max(16, run.size * 2);
    run.slots = resized(run.slots, capacity);
    run.lengths = resized(run.lengths, capacity);
    run.seqs = resized(run.seqs, capacity);
  }
  run.slots[run.size] = slot;
  run.lengths[run.size] = length;
  run.seqs[run.size] = seq;
  run.size += 1;
}

/** Sorts the group's pending postings and merges them into its sorted run. */
function settle(group: Group): void {
  const { pending, sorted } = group;
  if (pending.size === 0) return;
  const before = (a: Run, i: number, b: Run, j: number) =>
    (a.lengths[i] as number) < (b.lengths[j] as number) || (a.lengths[i] === b.lengths[j] && (a.seqs[i] as number) < (b.seqs[j] as number));
  const order = Array.from({ length: pending.size }, (_, i) => i).sort((i, j) => (before(pending, i, pending, j) ? -1 : before(pending, j, pending, i) ? 1 : 0));
  const merged = emptyRun(sorted.size + pending.size);
  let i = 0;
  let j = 0;
  while (i < sorted.size || j < order.length) {
    const p = order[j] as number;
    if (j >= order.length || (i < sorted.size && before(sorted, i, pending, p))) {
      append(merged, sorted.slots[i] as number, sorted.lengths[i] as number, sorted.seqs[i] as number);
      i++;
    } else {
      append(merged, pending.slots[p] as number, pending.lengths[p] as number, pending.seqs[p] as number);
      j++;
    }
  }
  group.sorted = merged;
  group.pending = emptyRun(16);
}

function siftUp(heap: number[], from: number, ahead: (a: number, b: number) => boolean): void {
  let i = from;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!ahead(heap[i] as number, heap[parent] as number)) return;
    [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
    i = parent;
  }
}

function siftDown(heap: number[], from: number, ahead: (a: number, b: number) => boolean): void {
  let i = from;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let best = i;
    if (left < heap.length && ahead(heap[left] as number, heap[best] as number)) best = left;
    if (right < heap.length && ahead(heap[right] as number, heap[best] as number)) best = right;
    if (best === i) return;
    [heap[i], heap[best]] = [heap[best] as number, heap[i] as number];
    i = best;
  }
}
