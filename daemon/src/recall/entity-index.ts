import { TopHits } from "../keywords/top-hits.js";

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
  private readonly rowsOf: Set<number>[] = [];
  private readonly entitiesOf = new Map<number, readonly number[]>();
  private readonly facetsOf = new Map<number, Facets>();

  /** Links a row to these entity keys (replacing its earlier links), with what filters test. */
  set(seq: number, keys: readonly string[], facets: Facets): void {
    this.delete(seq);
    const ids = [...new Set(keys)].map((key) => this.entityId(key));
    for (const id of ids) (this.rowsOf[id] as Set<number>).add(seq);
    this.entitiesOf.set(seq, ids);
    this.facetsOf.set(seq, facets);
  }

  /** Replaces what filters test of a linked row. */
  setFacets(seq: number, facets: Facets): void {
    if (this.facetsOf.has(seq)) this.facetsOf.set(seq, facets);
  }

  delete(seq: number): void {
    for (const id of this.entitiesOf.get(seq) ?? []) (this.rowsOf[id] as Set<number>).delete(seq);
    this.entitiesOf.delete(seq);
    this.facetsOf.delete(seq);
  }

  search(search: EntitySearch<Facets>): EntityHit<Facets>[] {
    const known = [...new Set(search.keys)].flatMap((key) => {
      const id = this.ids.get(key);
      return id !== undefined && (this.rowsOf[id] as Set<number>).size > 0 ? [id] : [];
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
   * Scores come first (a common entity reaches thousands of rows, each tested once); paths are
   * built for the best rows alone.
   */
  private scored(entities: readonly number[], weight: number, search: EntitySearch<Facets>): EntityHit<Facets>[] {
    const scores = new Map<number, number>();
    for (const id of entities) {
      const rows = this.rowsOf[id] as Set<number>;
      const worth = weight / rows.size;
      for (const seq of rows) {
        const score = scores.get(seq);
        if (score !== undefined) scores.set(seq, score + worth);
        else if (search.accept(this.facetsOf.get(seq) as Facets)) scores.set(seq, worth);
        else scores.set(seq, Number.NaN);
      }
    }
    const top = new TopHits(search.limit);
    for (const [seq, score] of scores) if (!Number.isNaN(score)) top.push(false, score, seq);
    return top.bestFirst().map(({ seq, score }) => {
      const named = new Set(this.entitiesOf.get(seq));
      return { seq, score, path: entities.filter((id) => named.has(id)).map((id) => this.keys[id] as string), facets: this.facetsOf.get(seq) as Facets };
    });
  }

  /** The entities the given rows share most, rarer first among equals, other than the query's own. */
  private hopEntities(from: readonly EntityHit<Facets>[], exclude: ReadonlySet<number>, limit: number): number[] {
    const shared = new Map<number, number>();
    for (const { seq } of from) for (const id of this.entitiesOf.get(seq) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    const rows = (id: number) => (this.rowsOf[id] as Set<number>).size;
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
      this.rowsOf.push(new Set());
    }
    return id;
  }
}

function bestFirst(a: { score: number; seq: number }, b: { score: number; seq: number }): number {
  return b.score - a.score || a.seq - b.seq;
}
