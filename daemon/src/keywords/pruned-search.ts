import { bm25Term } from "./bm25.js";
import { frequencyAt, type PostingList, seekSlot } from "./posting-list.js";
import { kthLargest, roundedDown, roundedUp, termBound } from "./score-bounds.js";
import { TopHits } from "./top-hits.js";

/** Classes of row keys: the low 8 bits. */
export const KEY_CLASSES = 256;

/** Which row keys a scope admits: the key's class (key % 256) in `classes`, its group (key / 256) in `groups` unless that is undefined. */
export interface KeyFilter {
  classes: Uint8Array;
  groups?: Uint8Array;
}

/** Keys are unsigned 32-bit, so the class and the group come out of integer bit operations, not a division. */
export function admits(filter: KeyFilter, key: number): boolean {
  return filter.classes[key & (KEY_CLASSES - 1)] === 1 && (filter.groups === undefined || filter.groups[key >>> 8] === 1);
}

/** A phrase of the query: the rows holding it, and its IDF. */
export interface MatchedPhrase {
  list: PostingList;
  idf: number;
  /** The term, when the phrase is one term (its list is the index's own, not made for the query). */
  term?: number;
}

/** The index's rows by slot, and per-slot scratch that is all zero between searches. */
export interface RowTable {
  keys: Uint32Array;
  lengths: Int32Array;
  seqs: Float64Array;
  averageLength: number;
  scores: Float64Array;
  marks: Uint8Array;
  touched: Int32Array;
  /** Scratch for threshold selection, as long as the others. */
  spare: Float64Array;
}

const TOUCHED = 1;
const FULL = 2;
const CANDIDATE = 4;

/**
 * What scanning every posting list and ranking every touched row would keep for each scope,
 * found with less work (MaxScore). The rows holding every phrase are found first, by walking
 * the shortest list and seeking in the others. The lists are then scanned best bound first,
 * until no row missing from all the scanned ones could still make any scope's best `limit`:
 * each scope's k-th best partial score (a lower bound of its k-th final score) beats what the
 * lists left could add. Only the rows that might still make a top then get the rest of their
 * scores, by probing or by a scan that tests nothing but a mark, and the few whose score may
 * reach a top are ranked with their exact score: the phrases' terms summed in query order, as
 * the full scan and FTS5 sum them, so that every score and tie comes out the same to the bit.
 *
 * `phrases` holds undefined for a phrase that no row holds; `union` admits every key some scope admits.
 */
export function searchPruned(
  rows: RowTable,
  phrases: readonly (MatchedPhrase | undefined)[],
  scopes: readonly (KeyFilter & { limit: number })[],
  union: KeyFilter,
): TopHits[] {
  const { keys, lengths, seqs, averageLength, scores, marks, touched } = rows;
  const known: { index: number; list: PostingList; idf: number; bound: number }[] = [];
  phrases.forEach((phrase, index) => {
    if (phrase !== undefined && phrase.list.size > 0) known.push({ index, ...phrase, bound: termBound(phrase.idf, phrase.list, averageLength) });
  });
  const scanOrder = [...known].sort((a, b) => b.bound - a.bound || a.list.size - b.list.size);
  // left[i]: the most the lists from scanOrder[i] on can add to a row.
  const left = new Float64Array(scanOrder.length + 1);
  for (let i = scanOrder.length - 1; i >= 0; i--) left[i] = (left[i + 1] as number) + (scanOrder[i] as { bound: number }).bound;

  const full = known.length === phrases.length ? fullRows(rows, known, phrases.length, union) : { slots: [], scores: [] };
  for (const slot of full.slots) marks[slot] = FULL;

  const thresholds = new Float64Array(scopes.length);
  let count = 0;
  let scanned = 0;
  for (; scanned < scanOrder.length; scanned++) {
    if (scanned > 0) {
      setThresholds(rows, touched, count, full.slots, scopes, thresholds);
      const most = roundedUp(left[scanned] as number);
      if (thresholds.every((threshold) => most < threshold)) break;
    }
    const { list, idf } = scanOrder[scanned] as MatchedPhrase;
    const { slots, frequencies } = list;
    const { values } = list.table;
    for (let i = 0; i < list.size; i++) {
      const slot = slots[i] as number;
      const key = keys[slot] as number;
      if (!admits(union, key)) continue;
      const mark = marks[slot] as number;
      if ((mark & TOUCHED) === 0) {
        marks[slot] = mark | TOUCHED;
        touched[count++] = slot;
      }
      scores[slot] = (scores[slot] as number) + bm25Term(idf, values[frequencies[i] as number] as number, lengths[slot] as number, averageLength);
    }
  }

  // Rows holding some phrases, but not all, that may still make a top: the rest of their scores.
  let candidates = touched;
  let candidateCount = count;
  if (scanned < scanOrder.length) {
    const most = left[scanned] as number;
    candidates = new Int32Array(count);
    candidateCount = 0;
    for (let t = 0; t < count; t++) {
      const slot = touched[t] as number;
      if ((marks[slot] as number) & FULL) continue;
      const bound = roundedUp((scores[slot] as number) + most);
      const key = keys[slot] as number;
      let wanted = false;
      // Plain loops in the per-row paths: a closure per row was most of what a search allocated.
      for (let j = 0; j < scopes.length && !wanted; j++) wanted = bound >= (thresholds[j] as number) && admits(scopes[j] as KeyFilter, key);
      if (!wanted) continue;
      marks[slot] = (marks[slot] as number) | CANDIDATE;
      candidates[candidateCount++] = slot;
    }
    for (const { list, idf } of scanOrder.slice(scanned)) addTerms(rows, list, idf, candidates, candidateCount);
  }
  setThresholds(rows, candidates, candidateCount, full.slots, scopes, thresholds);

  const tops = scopes.map((scope) => new TopHits(Math.max(0, scope.limit)));
  full.slots.forEach((slot, i) => {
    const key = keys[slot] as number;
    scopes.forEach((scope, j) => {
      if (admits(scope, key)) (tops[j] as TopHits).push(true, full.scores[i] as number, seqs[slot] as number);
    });
  });
  for (let c = 0; c < candidateCount; c++) {
    const slot = candidates[c] as number;
    if ((marks[slot] as number) & FULL) continue;
    const bound = roundedUp(scores[slot] as number);
    const key = keys[slot] as number;
    const seq = seqs[slot] as number;
    let score = Number.NaN;
    for (let j = 0; j < scopes.length; j++) {
      const top = tops[j] as TopHits;
      if (bound < (thresholds[j] as number) || !admits(scopes[j] as KeyFilter, key) || !top.wouldKeep(false, bound, -Infinity)) continue;
      if (Number.isNaN(score)) score = exactScore(rows, phrases, slot);
      if (top.wouldKeep(false, score, seq)) top.push(false, score, seq);
    }
  }

  for (let t = 0; t < count; t++) {
    const slot = touched[t] as number;
    scores[slot] = 0;
    marks[slot] = 0;
  }
  for (const slot of full.slots) marks[slot] = 0;
  return tops;
}

/**
 * Adds a list's terms to the candidates' scores: by seeking each candidate when they are few
 * against the list, else by a scan that tests only the candidate mark.
 */
function addTerms(rows: RowTable, list: PostingList, idf: number, candidates: Int32Array, count: number): void {
  const { lengths, averageLength, scores, marks } = rows;
  const { slots, frequencies } = list;
  const { values } = list.table;
  if (count * 2 * Math.log2(list.size + 1) < list.size) {
    for (let c = 0; c < count; c++) {
      const slot = candidates[c] as number;
      const k = seekSlot(list, slot, 0);
      if (k < list.size && slots[k] === slot) {
        scores[slot] = (scores[slot] as number) + bm25Term(idf, values[frequencies[k] as number] as number, lengths[slot] as number, averageLength);
      }
    }
    return;
  }
  for (let i = 0; i < list.size; i++) {
    const slot = slots[i] as number;
    if (((marks[slot] as number) & CANDIDATE) === 0) continue;
    scores[slot] = (scores[slot] as number) + bm25Term(idf, values[frequencies[i] as number] as number, lengths[slot] as number, averageLength);
  }
}

/** The admitted rows holding every phrase, with their scores: the shortest list walked, the others sought in. */
function fullRows(
  rows: RowTable,
  known: readonly { index: number; list: PostingList; idf: number }[],
  phraseCount: number,
  union: KeyFilter,
): { slots: number[]; scores: number[] } {
  const { keys, lengths, averageLength } = rows;
  const bySize = [...known].sort((a, b) => a.list.size - b.list.size);
  const shortest = (bySize[0] as { list: PostingList }).list;
  const at = new Int32Array(bySize.length);
  const terms = new Float64Array(phraseCount);
  const found: { slots: number[]; scores: number[] } = { slots: [], scores: [] };
  rows: for (let i = 0; i < shortest.size; i++) {
    const slot = shortest.slots[i] as number;
    if (!admits(union, keys[slot] as number)) continue;
    const length = lengths[slot] as number;
    for (let p = 0; p < bySize.length; p++) {
      const { index, list, idf } = bySize[p] as { index: number; list: PostingList; idf: number };
      const k = seekSlot(list, slot, at[p] as number);
      at[p] = k;
      // Slots only grow along the shortest list: once a list runs out, no later row is in it.
      if (k === list.size) break rows;
      if (list.slots[k] !== slot) continue rows;
      terms[index] = bm25Term(idf, frequencyAt(list, k), length, averageLength);
    }
    let score = 0;
    for (let p = 0; p < phraseCount; p++) score += terms[p] as number;
    found.slots.push(slot);
    found.scores.push(score);
  }
  return found;
}

/**
 * For each scope, a lower bound of the score its `limit`-th best row will have, Infinity when
 * rows holding every phrase fill it, -Infinity when too few rows are known yet: the k-th best
 * partial score of the given rows it admits, less the slack for the order of summing.
 */
function setThresholds(
  rows: RowTable,
  among: Int32Array,
  count: number,
  fullSlots: readonly number[],
  scopes: readonly (KeyFilter & { limit: number })[],
  thresholds: Float64Array,
): void {
  const { keys, marks, scores, spare } = rows;
  scopes.forEach((scope, j) => {
    const limit = Math.max(0, scope.limit);
    let fullCount = 0;
    for (const slot of fullSlots) if (admits(scope, keys[slot] as number)) fullCount++;
    if (fullCount >= limit) {
      thresholds[j] = Infinity;
      return;
    }
    let m = 0;
    for (let t = 0; t < count; t++) {
      const slot = among[t] as number;
      if ((marks[slot] as number) & FULL || !admits(scope, keys[slot] as number)) continue;
      spare[m++] = scores[slot] as number;
    }
    const need = limit - fullCount;
    thresholds[j] = m < need ? -Infinity : roundedDown(kthLargest(spare, m, need));
  });
}

/** A row's score, its phrases' terms added in query order as the full scan and FTS5 add them. */
function exactScore(rows: RowTable, phrases: readonly (MatchedPhrase | undefined)[], slot: number): number {
  const length = rows.lengths[slot] as number;
  let score = 0;
  for (const phrase of phrases) {
    if (phrase === undefined) continue;
    const k = seekSlot(phrase.list, slot, 0);
    if (k < phrase.list.size && phrase.list.slots[k] === slot) {
      score += bm25Term(phrase.idf, frequencyAt(phrase.list, k), length, rows.averageLength);
    }
  }
  return score;
}
