import { bm25Term } from "./bm25.js";
import { grow, type PostingList } from "./posting-list.js";

/** Postings of one frequency, shortest row first (then lowest seq): best score first at any average length. */
interface Group {
  frequency: number;
  slots: Int32Array;
  lengths: Int32Array;
  seqs: Float64Array;
  size: number;
}

/** What the index knows of a slot, to order and skip postings. */
export interface SlotFacts {
  lengths: Int32Array;
  seqs: Float64Array;
}

/**
 * A long posting list in the order of what its postings score, for a search by that one term:
 * the score of a posting grows with its frequency and falls with its row's length, so within
 * one frequency the shortest rows come first whatever the average length, and merging the
 * few frequencies' groups yields every posting best first, ties by seq, exactly as ranking
 * the whole list would order them. Such a search then reads as many postings as it keeps
 * (more when scopes turn rows down) instead of tens of thousands. Kept up to date as rows are
 * added; a deleted row stays (the index skips its slot) until the index compacts.
 */
export class ImpactOrder {
  private readonly groups: Group[] = [];

  constructor(list: PostingList, facts: SlotFacts, live: (slot: number) => boolean) {
    const bySlot: number[] = [];
    for (let i = 0; i < list.size; i++) if (live(list.slots[i] as number)) bySlot.push(i);
    bySlot.sort((a, b) => {
      const slotA = list.slots[a] as number;
      const slotB = list.slots[b] as number;
      return (
        (list.frequencies[a] as number) - (list.frequencies[b] as number) ||
        (facts.lengths[slotA] as number) - (facts.lengths[slotB] as number) ||
        (facts.seqs[slotA] as number) - (facts.seqs[slotB] as number)
      );
    });
    for (const i of bySlot) {
      const slot = list.slots[i] as number;
      this.append(this.groupOf(list.frequencies[i] as number), slot, facts.lengths[slot] as number, facts.seqs[slot] as number);
    }
  }

  /** Adds a new row's posting in its place. */
  add(slot: number, frequency: number, length: number, seq: number): void {
    const group = this.groupOf(frequency);
    let low = 0;
    let high = group.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const before = (group.lengths[middle] as number) < length || (group.lengths[middle] === length && (group.seqs[middle] as number) < seq);
      if (before) low = middle + 1;
      else high = middle;
    }
    this.append(group, slot, length, seq);
    group.slots.copyWithin(low + 1, low, group.size - 1);
    group.lengths.copyWithin(low + 1, low, group.size - 1);
    group.seqs.copyWithin(low + 1, low, group.size - 1);
    group.slots[low] = slot;
    group.lengths[low] = length;
    group.seqs[low] = seq;
  }

  /**
   * Hands postings to `take`, best first (score as bm25Term gives it, then lowest seq), until
   * it returns true (it has all it wants) or none are left.
   */
  visit(idf: number, averageLength: number, take: (slot: number, score: number) => boolean): void {
    const { groups } = this;
    const at = new Int32Array(groups.length);
    const heads = groups.map((group) => (group.size > 0 ? bm25Term(idf, group.frequency, group.lengths[0] as number, averageLength) : Number.NaN));
    for (;;) {
      let best = -1;
      for (let g = 0; g < groups.length; g++) {
        const score = heads[g] as number;
        if (Number.isNaN(score)) continue;
        const bestScore = heads[best] as number;
        const group = groups[g] as Group;
        if (best < 0 || score > bestScore || (score === bestScore && (group.seqs[at[g] as number] as number) < ((groups[best] as Group).seqs[at[best] as number] as number))) best = g;
      }
      if (best < 0) return;
      const group = groups[best] as Group;
      const position = at[best] as number;
      if (take(group.slots[position] as number, heads[best] as number)) return;
      at[best] = position + 1;
      heads[best] = position + 1 < group.size ? bm25Term(idf, group.frequency, group.lengths[position + 1] as number, averageLength) : Number.NaN;
    }
  }

  private groupOf(frequency: number): Group {
    let group = this.groups.find((candidate) => candidate.frequency === frequency);
    if (group === undefined) {
      group = { frequency, slots: new Int32Array(16), lengths: new Int32Array(16), seqs: new Float64Array(16), size: 0 };
      this.groups.push(group);
    }
    return group;
  }

  /** Appends at the end, growing the group's arrays by doubling. */
  private append(group: Group, slot: number, length: number, seq: number): void {
    if (group.size === group.slots.length) {
      const capacity = group.size * 2;
      group.slots = grow(group.slots, new Int32Array(capacity));
      group.lengths = grow(group.lengths, new Int32Array(capacity));
      group.seqs = grow(group.seqs, new Float64Array(capacity));
    }
    group.slots[group.size] = slot;
    group.lengths[group.size] = length;
    group.seqs[group.size] = seq;
    group.size += 1;
  }
}
