import { bm25Idf, bm25Term } from "./bm25.js";
import { ImpactOrder } from "./impact-order.js";
import { SeqTable } from "../seq-table.js";
import { resized } from "../typed-arrays.js";
import { phraseRows } from "./phrase-rows.js";
import { appendPosting, emptyPostingList, FrequencyTable, frequencyAt, type PostingList } from "./posting-list.js";
import { admits, KEY_CLASSES, type MatchedPhrase, type RowTable, searchPruned } from "./pruned-search.js";
import { COLUMN_BREAK, countTokens, RowTokens, splitColumns } from "./row-tokens.js";
import { TopHits } from "./top-hits.js";

export { KEY_CLASSES } from "./pruned-search.js";

/** A phrase of a query: its tokens in order, as tokenize() gives them. */
export type QueryPhrase = readonly string[];

/** A phrase searched besides the query's own (a synonym), with what it counts for: 1 as much as the query's own words. */
export interface WeightedPhrase {
  tokens: QueryPhrase;
  weight: number;
}

/** Which rows a search may return, and how many. */
export interface KeywordScope<Facets> {
  /**
   * Admitted row keys (see set), tested before a row is scored, where most rows fail: a key's
   * class (key % 256) must be set in `classes`, its group (key / 256) in `groups` unless that
   * is undefined (every group).
   */
  classes: Uint8Array;
  groups?: Uint8Array;
  /** A further test of the facets, when the key does not say everything; made only for rows that would make the top. */
  accept?: (facets: Facets) => boolean;
  limit: number;
}

/** The key of a deleted row's slot: class 255, which no scope should admit, in no group. */
const DEAD_KEY = 0xffff_ffff;

export interface KeywordHit<Facets> {
  seq: number;
  score: number;
  /** The row holds every phrase of the query. */
  full: boolean;
  facets: Facets;
}

/** Postings from which a term's list is also kept in score order (see ImpactOrder), for searches by it alone. */
const IMPACT_ORDER_MIN_POSTINGS = 4096;
/** Reading more than a list's size over this in score order gives way to the plain scan. */
const IMPACT_ORDER_BUDGET_SHARE = 8;
/** Rows deleted since the last compaction beyond which the posting lists are rebuilt. */
const MIN_DEAD_TO_COMPACT = 1024;

/**
 * An in-memory inverted index that ranks rows by BM25 the way FTS5 does (see bm25.ts) without
 * reading the database: every posting list a query names is scanned, so results are exact,
 * and a scan costs nanoseconds per posting where FTS5's bm25() costs about a microsecond per
 * matching row. Each row keeps its token ids in order (for phrases and deletion) and its facets
 * (what filters test). Rows are keyed by seq; a deleted row leaves a dead slot, and the lists
 * are rebuilt once dead slots outnumber live ones.
 */
export class KeywordIndex<Facets> {
  private termIds = new Map<string, number>();
  private termNames: string[] = [];
  private lists: PostingList[] = [];
  private frequencies = new FrequencyTable();
  private impactOrders = new Map<number, ImpactOrder>();
  private slotOf = new SeqTable();
  /** Each row's class (its key's low byte) by seq, for classOf. */
  private classBySeq = new SeqTable("bytes");
  private seqs = new Float64Array(0);
  private keys = new Uint32Array(0);
  private lengths = new Int32Array(0);
  private rowTokens = new RowTokens();
  private rowFacets: (Facets | undefined)[] = [];
  private used = 0;
  private dead = 0;
  private rows = 0;
  private tokens = 0;
  // Per-search scratch, sized to the slots and reused: searches run one at a time.
  private scores = new Float64Array(0);
  private matched = new Uint8Array(0);
  private touched = new Int32Array(0);
  private spare = new Float64Array(0);

  /** `weights[i]` is the BM25 weight of column i, as given to FTS5's bm25(). */
  constructor(private readonly weights: readonly number[]) {}

  get size(): number {
    return this.rows;
  }

  has(seq: number): boolean {
    return this.slotOf.get(seq) !== undefined;
  }

  /** Replaces an indexed row's key and facets, keeping its tokens; false when it is not indexed. */
  setFacets(seq: number, key: number, facets: Facets): boolean {
    const slot = this.slotOf.get(seq);
    if (slot === undefined) return false;
    this.keys[slot] = key;
    this.classBySeq.set(seq, key % KEY_CLASSES);
    this.rowFacets[slot] = facets;
    return true;
  }

  /** A row's key (see set), if it is indexed. */
  keyOf(seq: number): number | undefined {
    const slot = this.slotOf.get(seq);
    return slot === undefined ? undefined : this.keys[slot];
  }

  /**
   * A row's class (its key % KEY_CLASSES), if it is indexed: one byte per seq, which stays in
   * cache where keyOf's two lookups miss it, for a caller that tests thousands of rows at random.
   */
  classOf(seq: number): number | undefined {
    return this.classBySeq.get(seq);
  }

  /** The facets a row was indexed with, if it is indexed. */
  facetsOf(seq: number): Facets | undefined {
    const slot = this.slotOf.get(seq);
    return slot === undefined ? undefined : this.rowFacets[slot];
  }

  /**
   * Indexes a row (replacing any earlier version): its columns' tokens, in the order of the
   * weights, `extraLength` tokens that count in its length but are never matched, a key that
   * scopes test first (see KeywordScope) and the facets they test last.
   */
  set(seq: number, columns: readonly (readonly string[])[], extraLength: number, key: number, facets: Facets): void {
    this.delete(seq);
    const slot = this.used;
    this.used += 1;
    this.reserve(this.used);
    const ids = new Int32Array(columns.reduce((n, tokens) => n + tokens.length, 0) + Math.max(0, columns.length - 1));
    const frequencies = new Map<number, number>();
    let at = 0;
    columns.forEach((tokens, column) => {
      if (column > 0) ids[at++] = COLUMN_BREAK;
      const weight = this.weights[column] ?? 0;
      for (const token of tokens) {
        const id = this.termId(token);
        ids[at++] = id;
        frequencies.set(id, (frequencies.get(id) ?? 0) + weight);
      }
    });
    const length = ids.length - Math.max(0, columns.length - 1) + extraLength;
    for (const [id, frequency] of frequencies) {
      appendPosting(this.lists[id] as PostingList, slot, frequency, length);
      this.impactOrders.get(id)?.add(slot, frequency, length, seq);
    }
    this.seqs[slot] = seq;
    this.keys[slot] = key;
    this.lengths[slot] = length;
    this.rowTokens.set(slot, ids);
    this.rowFacets[slot] = facets;
    this.slotOf.set(seq, slot);
    this.classBySeq.set(seq, key % KEY_CLASSES);
    this.rows += 1;
    this.tokens += length;
  }

  delete(seq: number): void {
    const slot = this.slotOf.get(seq);
    if (slot === undefined) return;
    for (const id of new Set(this.rowTokens.of(slot))) if (id !== COLUMN_BREAK) (this.lists[id] as PostingList).live -= 1;
    this.rowFacets[slot] = undefined;
    this.keys[slot] = DEAD_KEY;
    this.slotOf.delete(seq);
    this.classBySeq.delete(seq);
    this.rows -= 1;
    this.tokens -= this.lengths[slot] as number;
    this.dead += 1;
    if (this.dead >= MIN_DEAD_TO_COMPACT && this.dead > this.rows) this.compact();
  }

  /**
   * For each scope, the best rows holding any phrase that it admits (each phrase's part of a
   * score times its weight, 1 where `weights` gives none): rows holding every phrase
   * first (as FTS5's AND query before its OR query), each group by BM25. Scopes share one pass
   * over the posting lists, so a narrow and a wide search cost little more than the wide one;
   * with two phrases or more, lists that cannot change any scope's best rows are only probed
   * (see searchPruned).
   */
  search(phrases: readonly QueryPhrase[], scopes: readonly KeywordScope<Facets>[], weights?: readonly number[]): KeywordHit<Facets>[][] {
    if (this.rows === 0) return scopes.map(() => []);
    const weighted = phrases.map((phrase, i) => ({ phrase, weight: weights?.[i] ?? 1 })).filter(({ phrase, weight }) => phrase.length > 0 && weight > 0);
    const classes = new Uint8Array(KEY_CLASSES);
    let groups: Uint8Array | undefined = new Uint8Array(0);
    for (const scope of scopes) {
      scope.classes.forEach((on, at) => {
        if (on) classes[at] = 1;
      });
      groups = scope.groups === undefined || groups === undefined ? undefined : union(groups, scope.groups);
    }
    classes[DEAD_KEY % KEY_CLASSES] = 0;
    const matches = weighted.map(({ phrase, weight }) => this.match(phrase, weight));
    // An accept test can reject any row, so no scope's threshold is known before the end: scan everything.
    const tops =
      matches.filter((match) => match !== undefined).length >= 2 && scopes.every((scope) => scope.accept === undefined)
        ? searchPruned(this.table(), matches, scopes, { classes, groups })
        : this.searchAll(matches, scopes, { classes, groups });
    return tops.map((top) => top.bestFirst().map((hit) => ({ ...hit, facets: this.rowFacets[this.slotOf.get(hit.seq) as number] as Facets })));
  }

  /**
   * How many rows of each group (a key's high bits: see KeywordScope) the scope admits that hold
   * the phrase: where a word of a query is used, which tells a project that lacks it from one
   * that merely ranks it low. Every row of the phrase is read.
   */
  groupCounts(phrase: QueryPhrase, scope: Omit<KeywordScope<Facets>, "limit">): Map<number, number> {
    const counts = new Map<number, number>();
    const match = phrase.length === 0 ? undefined : this.match(phrase);
    if (match === undefined) return counts;
    const { list } = match;
    for (let i = 0; i < list.size; i++) {
      const slot = list.slots[i] as number;
      const key = this.keys[slot] as number;
      if (!admits(scope, key) || (scope.accept && !scope.accept(this.rowFacets[slot] as Facets))) continue;
      const group = key >>> 8;
      counts.set(group, (counts.get(group) ?? 0) + 1);
    }
    return counts;
  }

  /**
   * The rows holding a phrase and its IDF, scaled by the phrase's weight (a synonym's counts for
   * less than the query's own word); undefined when no row holds it.
   */
  private match(phrase: QueryPhrase, weight = 1): MatchedPhrase | undefined {
    const ids = phrase.map((token) => this.termIds.get(token));
    if (ids.some((id) => id === undefined)) return undefined;
    const term = ids.length === 1 ? (ids[0] as number) : undefined;
    const index = { lists: this.lists, keys: this.keys, deadKey: DEAD_KEY, lengths: this.lengths, tokens: this.rowTokens, weights: this.weights };
    const list = term !== undefined ? (this.lists[term] as PostingList) : phraseRows(index, ids as number[]);
    return list.live === 0 ? undefined : { list, idf: bm25Idf(this.rows, list.live) * weight, term };
  }

  private table(): RowTable {
    const { keys, lengths, seqs, scores, matched: marks, touched, spare } = this;
    return { keys, lengths, seqs, averageLength: this.tokens / this.rows, scores, marks, touched, spare };
  }

  /** Every posting of every phrase scanned, every admitted row ranked in every scope that admits it. */
  private searchAll(matches: readonly (MatchedPhrase | undefined)[], scopes: readonly KeywordScope<Facets>[], admitted: { classes: Uint8Array; groups?: Uint8Array }): TopHits[] {
    const average = this.tokens / this.rows;
    const { keys, matched, scores, lengths, touched } = this;
    let tops = scopes.map((scope) => new TopHits(Math.max(0, scope.limit)));
    const known = matches.filter((match) => match !== undefined);
    if (known.length === 1) {
      // One list: each row's score is its one term, so rows are ranked as they are read, in the same order.
      const { list, idf, term } = known[0] as MatchedPhrase;
      const full = matches.length === 1;
      if (term !== undefined && list.size >= IMPACT_ORDER_MIN_POSTINGS && scopes.every((scope) => scope.accept === undefined)) {
        // Best postings first: reading stops once every scope has its best rows. A scope that
        // admits few of the list's rows may never fill; past a share of the list, the plain scan is cheaper.
        const done = this.impactOrder(term).visit(idf, average, list.size / IMPACT_ORDER_BUDGET_SHARE, (slot, score) => {
          if (admits(admitted, keys[slot] as number)) this.rank(scopes, tops, slot, full, score);
          return tops.every((top) => top.filled);
        });
        if (done) return tops;
        tops = scopes.map((scope) => new TopHits(Math.max(0, scope.limit)));
      }
      for (let i = 0; i < list.size; i++) {
        const slot = list.slots[i] as number;
        const key = keys[slot] as number;
        if (!admits(admitted, key)) continue;
        this.rank(scopes, tops, slot, full, bm25Term(idf, frequencyAt(list, i), lengths[slot] as number, average));
      }
      return tops;
    }
    let touchedCount = 0;
    for (const match of matches) {
      if (match === undefined) continue;
      const { list, idf } = match;
      const { slots, frequencies } = list;
      const { values } = list.table;
      for (let i = 0; i < list.size; i++) {
        const slot = slots[i] as number;
        const key = keys[slot] as number;
        if (!admits(admitted, key)) continue;
        if (matched[slot] === 0) touched[touchedCount++] = slot;
        matched[slot] = (matched[slot] as number) + 1;
        scores[slot] = (scores[slot] as number) + bm25Term(idf, values[frequencies[i] as number] as number, lengths[slot] as number, average);
      }
    }
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i] as number;
      this.rank(scopes, tops, slot, matched[slot] === matches.length, scores[slot] as number);
      scores[slot] = 0;
      matched[slot] = 0;
    }
    return tops;
  }

  /** Offers a scored row to each scope that admits it; accept is asked only when the row would be kept. */
  private rank(scopes: readonly KeywordScope<Facets>[], tops: readonly TopHits[], slot: number, full: boolean, score: number): void {
    const key = this.keys[slot] as number;
    const seq = this.seqs[slot] as number;
    for (let j = 0; j < scopes.length; j++) {
      const scope = scopes[j] as KeywordScope<Facets>;
      const top = tops[j] as TopHits;
      if (!admits(scope, key) || !top.wouldKeep(full, score, seq)) continue;
      if (!scope.accept || scope.accept(this.rowFacets[slot] as Facets)) top.push(full, score, seq);
    }
  }

  private impactOrder(term: number): ImpactOrder {
    let order = this.impactOrders.get(term);
    if (order === undefined) {
      order = new ImpactOrder(this.lists[term] as PostingList, { lengths: this.lengths, seqs: this.seqs }, (slot) => this.keys[slot] !== DEAD_KEY);
      this.impactOrders.set(term, order);
    }
    return order;
  }

  private termId(token: string): number {
    let id = this.termIds.get(token);
    if (id === undefined) {
      id = this.termNames.length;
      this.termIds.set(token, id);
      this.termNames.push(token);
      this.lists.push(emptyPostingList(4, this.frequencies));
    }
    return id;
  }

  private reserve(slots: number): void {
    if (slots <= this.seqs.length) return;
    const capacity = Math.max(1024, this.seqs.length * 2, slots);
    this.seqs = resized(this.seqs, capacity);
    this.keys = resized(this.keys, capacity);
    this.lengths = resized(this.lengths, capacity);
    this.rowTokens.reserve(capacity);
    this.scores = new Float64Array(capacity);
    this.matched = new Uint8Array(capacity);
    this.touched = new Int32Array(capacity);
    this.spare = new Float64Array(capacity);
  }

  /** Re-indexes the live rows into fresh slots and lists, dropping dead slots and unused terms. */
  private compact(): void {
    const live: number[] = [];
    for (let slot = 0; slot < this.used; slot++) if (this.keys[slot] !== DEAD_KEY) live.push(slot);
    const rows = live.map((slot) => ({
      seq: this.seqs[slot] as number,
      columns: splitColumns(this.rowTokens.of(slot), this.termNames),
      extra: (this.lengths[slot] as number) - countTokens(this.rowTokens.of(slot)),
      key: this.keys[slot] as number,
      facets: this.rowFacets[slot] as Facets,
    }));
    this.termIds = new Map();
    this.termNames = [];
    this.lists = [];
    this.frequencies = new FrequencyTable();
    this.impactOrders = new Map();
    this.slotOf = new SeqTable();
    this.seqs = new Float64Array(0);
    this.keys = new Uint32Array(0);
    this.lengths = new Int32Array(0);
    this.rowTokens = new RowTokens();
    this.rowFacets = [];
    this.used = 0;
    this.dead = 0;
    this.rows = 0;
    this.tokens = 0;
    for (const row of rows) this.set(row.seq, row.columns, row.extra, row.key, row.facets);
  }
}

function union(a: Uint8Array, b: Uint8Array): Uint8Array {
  const both = new Uint8Array(Math.max(a.length, b.length));
  both.set(a);
  b.forEach((on, at) => {
    if (on) both[at] = 1;
  });
  return both;
}
