import { appendPosting, emptyPostingList, FrequencyTable, type PostingList, seekSlot } from "./posting-list.js";
import type { RowTokens } from "./row-tokens.js";

/** What finding a phrase's rows reads of the index, by slot. */
export interface PhraseSource {
  /** Each term's posting list, by term id. */
  lists: readonly PostingList[];
  keys: Uint32Array;
  /** The key of a deleted row's slot. */
  deadKey: number;
  lengths: Int32Array;
  tokens: RowTokens;
  /** BM25 weight per column. */
  weights: readonly number[];
}

/**
 * Rows holding the phrase (term ids in order), with its weighted frequency in each, shaped like
 * a posting list (every entry live): the shortest term's list walked, rows missing another term
 * skipped by seeking in its list, and only the rest read for the phrase.
 */
export function phraseRows(index: PhraseSource, ids: readonly number[]): PostingList {
  const { keys, deadKey, lengths, tokens, weights } = index;
  const [shortest, ...others] = ids.map((id) => index.lists[id] as PostingList).sort((a, b) => a.size - b.size) as [PostingList, ...PostingList[]];
  const at = new Int32Array(others.length);
  // The phrase's frequencies are numbered apart from the index's: they are gone with the search.
  const found = emptyPostingList(shortest.live, new FrequencyTable());
  rows: for (let i = 0; i < shortest.size; i++) {
    const slot = shortest.slots[i] as number;
    if (keys[slot] === deadKey) continue;
    for (let o = 0; o < others.length; o++) {
      const list = others[o] as PostingList;
      const k = seekSlot(list, slot, at[o] as number);
      at[o] = k;
      if (k === list.size) break rows;
      if (list.slots[k] !== slot) continue rows;
    }
    const frequency = tokens.phraseFrequency(slot, ids, weights);
    if (frequency < 0) continue;
    appendPosting(found, slot, frequency, lengths[slot] as number);
  }
  return found;
}
