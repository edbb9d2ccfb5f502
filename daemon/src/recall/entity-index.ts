import { kthLargest, roundedUp } from "../keywords/score-bounds.js";
import { RowTokens } from "../keywords/row-tokens.js";
import { TopHits } from "../keywords/top-hits.js";
import { sortedPosition } from "../sorted-position.js";

/** How a graph search runs: the query's entity keys, which rows may come back, how far to hop. */
export interface EntitySearch<Facets> {
  keys: readonly string[];
  accept: (facets: Facets) => boolean;
  limit: number;
  /** How many of the best direct hits the one-hop expansion starts from. */
  hopFrom: number;
  /** How many co-occurring entities one hop out are followed. */
  hopEntities: number;
  /** What a one-hop link is worth relative to a direct one. */
  hopDiscount: number;
}

export interface EntityHit<Facets> {
  seq: number;
  score: number;
  /** The entity keys that led here. */
  path: string[];
  facets: Facets;
}

const UNSEEN = 0;
const ACCEPTED = 1;
const TURNED_DOWN = 2;

/** Ids left behind in the links' arena by rows linked again, beyond which it is rebuilt (besides outnumbering the live ones). */
const MIN_STALE_TO_COMPACT = 65_536;

/** An entity on more memories than this (a project-wide concept) connects nothing one hop out. */
const MAX_HOP_ROWS = 50;

/**
 * The entity graph in memory: which rows (memories, by seq) name which entities. A search
 * scores rows by the query's entities, rarer ones counting more (1 / rows naming it), then one
 * hop out: rows sharing an entity with the best direct hits, at a discount. Scanning a common
 * entity's rows costs microseconds here, where reading them from SQLite cost tens of
 * milliseconds.
 */
export class EntityIndex<Facets> {
  private readonly ids = new Map<string, number>();
  private readonly keys: string[] = [];
  /**
   * Per entity, the rows naming it in ascending seq: arrays of small integers, 8 bytes a row,
   * where a Set took about 30; membership is a binary search, and new rows (the largest seqs) append.
   */
  private readonly rowsOf: number[][] = [];
  // Each row's entity ids by seq (SQLite hands seqs out in order, so they stay dense), in one
  // arena: an array per row cost about 70 bytes besides its ids, 7 MB at 100k rows.
  private entitiesOf = new RowTokens();
  /** Ids in the arena that rows still link. */
  private linkedIds = 0;
  private readonly facetsOf: (Facets | undefined)[] = [];
  // Per-search scratch indexed by seq (SQLite hands seqs out in order, so they stay dense):
  // a Map of thousands of scores per search was most of what a search allocated.
  private scores = new Float64Array(0);
  private seen = new Uint8Array(0);
  private seenSeqs = new Int32Array(0);

  /** Links a row to these entity keys (replacing its earlier links), with what filters test. */
  set(seq: number, keys: readonly string[], facets: Facets): void {
    this.delete(seq);
    if (seq >= this.seen.length) this.reserve(seq + 1);
    const ids = [...new Set(keys)].map((key) => this.entityId(key));
    for (const id of ids) insertSorted(this.rowsOf[id] as number[], seq);
    this.entitiesOf.set(seq, Int32Array.from(ids));
    this.linkedIds += ids.length;
    if (this.entitiesOf.used - this.linkedIds > Math.max(MIN_STALE_TO_COMPACT, this.linkedIds)) this.compactLinks();
    this.facetsOf[seq] = facets;
  }

  /** Replaces what filters test of a linked row. */
  setFacets(seq: number, facets: Facets): void {
    if (this.facetsOf[seq] !== undefined) this.facetsOf[seq] = facets;
  }

  delete(seq: number): void {
    const ids = this.linksOf(seq);
    if (ids.length > 0) {
      for (const id of ids) removeSorted(this.rowsOf[id] as number[], seq);
      this.linkedIds -= ids.length;
      this.entitiesOf.set(seq, NO_LINKS);
    }
    this.facetsOf[seq] = undefined;
  }

  search(search: EntitySearch<Facets>): EntityHit<Facets>[] {
    const known = [...new Set(search.keys)].flatMap((key) => {
      const id = this.ids.get(key);
      return id !== undefined && (this.rowsOf[id] as number[]).length > 0 ? [id] : [];
    });
    if (known.length === 0) return [];
    const direct = this.scored(known, 1, search);
    const hops = this.hopEntities(direct.slice(0, search.hopFrom), new Set(known), search.hopEntities);
    const hits = new Map(direct.map((hit) => [hit.seq, hit]));
    for (const hit of this.scored(hops, search.hopDiscount, search)) {
      const existing = hits.get(hit.seq);
      if (existing) existing.score += hit.score;
      else hits.set(hit.seq, hit);
    }
    return [...hits.values()].sort(bestFirst).slice(0, search.limit);
  }

  /**
   * Rows naming these entities that pass the filter, each entity worth `weight / its rows`.
   * Rarer entities are counted first; once the best rows so far are certain to stay ahead of
   * any row not yet seen (the worth still to come is below the limit-th score), the commoner
   * entities only add to rows already seen, so a common entity's thousands of rows are not
   * each tested. Paths are built for the best rows alone.
   */
  private scored(entities: readonly number[], weight: number, search: EntitySearch<Facets>): EntityHit<Facets>[] {
    const rowsOf = (id: number) => this.rowsOf[id] as number[];
    const { scores, seen, seenSeqs } = this;
    const order = [...entities].sort((a, b) => rowsOf(a).length - rowsOf(b).length || a - b);
    // still[i]: the most the entities from order[i] on can add to a row.
    const still = new Float64Array(order.length + 1);
    for (let i = order.length - 1; i >= 0; i--) still[i] = (still[i + 1] as number) + weight / rowsOf(order[i] as number).length;
    let count = 0;
    let closed = false;
    for (let i = 0; i < order.length; i++) {
      const rows = rowsOf(order[i] as number);
      const worth = weight / rows.length;
      if (!closed) {
        for (const seq of rows) {
          if (seen[seq] === UNSEEN) {
            seen[seq] = search.accept(this.facetsOf[seq] as Facets) ? ACCEPTED : TURNED_DOWN;
            seenSeqs[count++] = seq;
          }
          scores[seq] = (scores[seq] as number) + worth;
        }
      } else if (count < rows.length) {
        for (let k = 0; k < count; k++) {
          const seq = seenSeqs[k] as number;
          if (sortedHas(rows, seq)) scores[seq] = (scores[seq] as number) + worth;
        }
      } else {
        for (const seq of rows) if (seen[seq] !== UNSEEN) scores[seq] = (scores[seq] as number) + worth;
      }
      const next = order[i + 1];
      // Worth checking only when the next entity has more rows than have been seen.
      // With slack for rounding: the worth still to come, summed in another order than a row's score.
      if (!closed && next !== undefined && rowsOf(next).length > count) closed = this.limitthBest(count, search.limit) > roundedUp(still[i + 1] as number);
    }
    const top = new TopHits(search.limit);
    for (let k = 0; k < count; k++) {
      const seq = seenSeqs[k] as number;
      if (seen[seq] === ACCEPTED) top.push(false, scores[seq] as number, seq);
      seen[seq] = UNSEEN;
      scores[seq] = 0;
    }
    return top.bestFirst().map(({ seq, score }) => {
      const named = new Set(this.linksOf(seq));
      return { seq, score, path: entities.filter((id) => named.has(id)).map((id) => this.keys[id] as string), facets: this.facetsOf[seq] as Facets };
    });
  }

  /** The `limit`-th best score of the accepted rows among the first `count` seen, or -Infinity when there are fewer. */
  private limitthBest(count: number, limit: number): number {
    const values = new Float64Array(count);
    let accepted = 0;
    for (let k = 0; k < count; k++) {
      const seq = this.seenSeqs[k] as number;
      if (this.seen[seq] === ACCEPTED) values[accepted++] = this.scores[seq] as number;
    }
    if (limit < 1 || accepted < limit) return Number.NEGATIVE_INFINITY;
    return kthLargest(values, accepted, limit);
  }

  /** The entity ids a row links to; none for a row never linked. */
  private linksOf(seq: number): Int32Array {
    return seq >= 0 && seq < this.seen.length && Number.isInteger(seq) ? this.entitiesOf.of(seq) : NO_LINKS;
  }

  /** Copies the live links into a fresh arena, leaving behind those of rows linked again. */
  private compactLinks(): void {
    const fresh = new RowTokens();
    fresh.reserve(this.seen.length);
    for (let seq = 0; seq < this.seen.length; seq++) {
      const ids = this.entitiesOf.of(seq);
      if (ids.length > 0) fresh.set(seq, ids);
    }
    this.entitiesOf = fresh;
  }

  private reserve(length: number): void {
    const capacity = Math.max(1024, length, this.seen.length * 2);
    this.entitiesOf.reserve(capacity);
    this.scores = new Float64Array(capacity);
    this.seen = new Uint8Array(capacity);
    this.seenSeqs = new Int32Array(capacity);
  }

  /** The entities the given rows share most, rarer first among equals, other than the query's own. */
  private hopEntities(from: readonly EntityHit<Facets>[], exclude: ReadonlySet<number>, limit: number): number[] {
    const shared = new Map<number, number>();
    for (const { seq } of from) for (const id of this.linksOf(seq)) shared.set(id, (shared.get(id) ?? 0) + 1);
    const rows = (id: number) => (this.rowsOf[id] as number[]).length;
    return [...shared.entries()]
      .filter(([id]) => !exclude.has(id) && rows(id) > 1 && rows(id) <= MAX_HOP_ROWS)
      .sort(([a, sharedA], [b, sharedB]) => sharedB - sharedA || rows(a) - rows(b) || a - b)
      .slice(0, limit)
      .map(([id]) => id);
  }

  private entityId(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
      this.rowsOf.push([]);
    }
    return id;
  }
}

const NO_LINKS = new Int32Array(0);

function sortedHas(rows: readonly number[], seq: number): boolean {
  return rows[sortedPosition(rows, seq)] === seq;
}

function insertSorted(rows: number[], seq: number): void {
  if (rows.length === 0 || (rows[rows.length - 1] as number) < seq) rows.push(seq);
  else if (!sortedHas(rows, seq)) rows.splice(sortedPosition(rows, seq), 0, seq);
}

function removeSorted(rows: number[], seq: number): void {
  const at = sortedPosition(rows, seq);
  if (rows[at] === seq) rows.splice(at, 1);
}

function bestFirst(a: { score: number; seq: number }, b: { score: number; seq: number }): number {
  return b.score - a.score || a.seq - b.seq;
}
