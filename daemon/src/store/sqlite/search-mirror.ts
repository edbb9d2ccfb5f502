import type Database from "better-sqlite3";
import { KEY_CLASSES, KeywordIndex, type KeywordHit, type QueryPhrase } from "../../keywords/keyword-index.js";
import { admits } from "../../keywords/pruned-search.js";
import { tokenize } from "../../keywords/tokenize.js";
import { MEMORY_KINDS, MEMORY_STATUSES, type MemoryKind, type MemoryStatus } from "../../memory/memory.js";
import { type MemoryFilter, matchesFilter } from "../../memory/memory-filter.js";
import { ColumnReader, READ_AS } from "./memory-row.js";
import { type EntityHit, EntityIndex } from "../../recall/entity-index.js";
import { SessionIndex } from "../../recall/session-index.js";
import type { GraphSearch, KeywordScope, RankedRow, RankingFacets } from "../store.js";

/**
 * BM25 weights of the FTS5 columns content, problem, solution, concepts, files, tags: a match
 * in concepts or files says more than one in running text. The project_key column (weight 0)
 * is not mirrored; it only adds its one token to each row's length.
 */
export const COLUMN_WEIGHTS = [1.0, 0.8, 0.8, 2.0, 1.5, 1.2] as const;
const PROJECT_KEY_TOKENS = 1;
/** Rows read per step of the initial load, so that a large database never blocks the daemon long. */
const LOAD_STEP = 1000;
/** A row's key (see KeywordScope) is its project's number, then its status and kind as a class. */
const KINDS_PER_STATUS = 16;
// Class 255 marks deleted rows in the index.
if (MEMORY_KINDS.length > KINDS_PER_STATUS || MEMORY_STATUSES.length * KINDS_PER_STATUS >= KEY_CLASSES) {
  throw new Error("the search filter key has no room for every status and kind: widen CLASSES");
}
/** The filter fields a row's key answers (see admitting). */
const KEYED_FIELDS = new Set(["projects", "kinds", "statuses"]);

interface IndexedRow {
  seq: number;
  content: string;
  problem: string;
  solution: string;
  concepts: string;
  files: string;
  tags: string;
  project: string;
  kind: string;
  status: string;
  session_id: string;
  pinned: number;
  created_at: number;
  review_at: number | null;
  id: string;
  importance: number;
  intensity: number;
  confidence: number;
  access_count: number;
}

const SELECT_ROWS = `SELECT m.seq, m.content, m.problem, m.solution, m.concepts, m.files, m.tags, m.project, m.kind, m.status,
  m.session_id, m.pinned, m.created_at, m.review_at, m.id, m.importance, m.intensity, m.confidence, m.access_count
  FROM memories m`;
const SELECT_LINKS = "SELECT me.memory_seq AS seq, e.key FROM memory_entities me JOIN entities e ON e.id = me.entity_id";

/**
 * The keyword index (an exact copy of FTS5's, see KeywordIndex) and the entity graph, in
 * memory, kept equal to the database: TEMP triggers on this connection, the daemon's only
 * writer, note every changed seq in the same transaction as the change (a rollback takes the
 * note back too), and each search first applies the noted changes. The first load runs in
 * steps (loadStep); a search that comes before it ends finishes it.
 */
export class SearchMirror {
  private readonly keywords = new KeywordIndex<RankingFacets>(COLUMN_WEIGHTS);
  private readonly entities = new EntityIndex<RankingFacets>();
  private readonly sessions = new SessionIndex();
  private readonly projectNumbers = new Map<string, number>();
  /** Each project by its number, as projectNumbers gives them. */
  private readonly projectNames: string[] = [];
  /** One copy of each project name and session id that rows share: SQLite hands every row its own strings. */
  private readonly shared = new Map<string, string>();
  private loadedThrough = 0;
  private loaded = false;
  private readonly changed: Database.Statement;
  private readonly changedFirst: Database.Statement;
  private readonly clear: Database.Statement;
  private readonly clearSome: Database.Statement;
  private readonly readSome: Database.Statement;
  private readonly readAfter: Database.Statement;
  private readonly linksOfSome: Database.Statement;
  private readonly linksInRange: Database.Statement;

  /** Notes applied from inside a transaction: a rollback would take them back, so they are applied again after it. */
  private readonly recheck = new Map<number, number>();

  constructor(private readonly db: Database.Database) {
    // text = 1 when what is searched changed (the text, the entity links, the row itself);
    // 0 when only what filters and ranking read did (an access, a promotion): no re-indexing.
    const note = (seq: string, text: number) =>
      `INSERT INTO search_changes (seq, text) VALUES (${seq}, ${text}) ON CONFLICT (seq) DO UPDATE SET text = max(text, excluded.text);`;
    db.exec(`
      CREATE TEMP TABLE IF NOT EXISTS search_changes (seq INTEGER PRIMARY KEY, text INTEGER NOT NULL);
      CREATE TEMP TRIGGER IF NOT EXISTS search_changes_insert AFTER INSERT ON main.memories BEGIN
        ${note("new.seq", 1)}
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS search_changes_delete AFTER DELETE ON main.memories BEGIN
        ${note("old.seq", 1)}
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS search_changes_text
      AFTER UPDATE OF content, problem, solution, concepts, files, tags ON main.memories
      WHEN old.content IS NOT new.content OR old.problem IS NOT new.problem OR old.solution IS NOT new.solution
        OR old.concepts IS NOT new.concepts OR old.files IS NOT new.files OR old.tags IS NOT new.tags
      BEGIN
        ${note("old.seq", 1)}
        ${note("new.seq", 1)}
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS search_changes_facets
      AFTER UPDATE OF project, kind, status, session_id, pinned, created_at, review_at, importance, intensity, confidence, access_count
      ON main.memories BEGIN
        ${note("old.seq", 0)}
        ${note("new.seq", 0)}
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS search_changes_link AFTER INSERT ON main.memory_entities BEGIN
        ${note("new.memory_seq", 1)}
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS search_changes_unlink AFTER DELETE ON main.memory_entities BEGIN
        ${note("old.memory_seq", 1)}
      END;
    `);
    this.changed = db.prepare("SELECT seq, text FROM search_changes");
    this.changedFirst = db.prepare(`SELECT seq, text FROM search_changes ORDER BY seq LIMIT ${LOAD_STEP}`);
    this.clear = db.prepare("DELETE FROM search_changes");
    this.clearSome = db.prepare("DELETE FROM search_changes WHERE seq IN (SELECT value FROM json_each(?))");
    this.readSome = db.prepare(`${SELECT_ROWS} WHERE m.seq IN (SELECT value FROM json_each(?))`);
    this.readAfter = db.prepare(`${SELECT_ROWS} WHERE m.seq > ? ORDER BY m.seq LIMIT ${LOAD_STEP}`);
    this.linksOfSome = db.prepare(`${SELECT_LINKS} WHERE me.memory_seq IN (SELECT value FROM json_each(?))`);
    this.linksInRange = db.prepare(`${SELECT_LINKS} WHERE me.memory_seq > ? AND me.memory_seq <= ?`);
  }

  /** Indexes the next rows of the first load; false once every row is in. */
  loadStep(): boolean {
    if (this.loaded) return false;
    this.catchUp();
    const rows = this.readAfter.all(this.loadedThrough) as IndexedRow[];
    const last = rows.at(-1);
    // One read of the step's links, not one per row.
    const links = last ? byRow(this.linksInRange.all(this.loadedThrough, last.seq) as Link[]) : new Map<number, string[]>();
    for (const row of rows) this.put(row, links.get(row.seq) ?? []);
    if (last) this.loadedThrough = last.seq;
    if (rows.length < LOAD_STEP) this.loaded = true;
    return !this.loaded;
  }

  /**
   * Applies the next noted changes, at most a load step of them, so that a bulk write (an
   * import of 100k memories took a search over 3 s to apply at once) is mirrored between
   * requests; false once none are left. Only between transactions, where no note can be
   * taken back.
   */
  catchUpStep(): boolean {
    if (!this.loaded || this.db.inTransaction) return false;
    const notes = new Map((this.changedFirst.all() as { seq: number; text: number }[]).map((row) => [row.seq, row.text]));
    if (notes.size === 0) return false;
    this.apply(notes);
    this.clearSome.run(JSON.stringify([...notes.keys()]));
    return notes.size === LOAD_STEP;
  }

  /** For each scope, its best rows for the phrases (see KeywordIndex.search). */
  searchKeyword(phrases: readonly QueryPhrase[], scopes: readonly KeywordScope[], weights?: readonly number[]): KeywordHit<RankingFacets>[][] {
    this.current();
    return this.keywords.search(
      phrases,
      scopes.map(({ filter, limit }) => ({
        ...this.admitting(filter),
        // The key holds the project, status and kind; the facets are needed only for anything else.
        accept: keyAnswers(filter) ? undefined : (facets: RankingFacets) => matchesFilter(facets, filter),
        limit,
      })),
      weights,
    );
  }

  /** How many memories the filter admits in each project hold the phrase (see KeywordIndex.groupCounts). */
  projectCounts(phrase: QueryPhrase, filter: MemoryFilter): Map<string, number> {
    this.current();
    const admitted = this.admitting(filter);
    const counts = this.keywords.groupCounts(phrase, { ...admitted, accept: keyAnswers(filter) ? undefined : (facets: RankingFacets) => matchesFilter(facets, filter) });
    return new Map([...counts].map(([group, count]) => [this.projectNames[group] as string, count]));
  }

  /** The row keys the filter's projects, statuses and kinds admit (see KeywordScope). */
  private admitting(filter: MemoryFilter): { classes: Uint8Array; groups?: Uint8Array } {
    const classes = new Uint8Array(KEY_CLASSES);
    const statuses = filter.statuses.length > 0 ? filter.statuses : MEMORY_STATUSES;
    const kinds = filter.kinds.length > 0 ? filter.kinds : MEMORY_KINDS;
    for (const status of statuses) for (const kind of kinds) classes[classOf(status, kind)] = 1;
    if (filter.projects === undefined) return { classes };
    const groups = new Uint8Array(this.projectNumbers.size);
    for (const project of filter.projects) {
      const number = this.projectNumbers.get(project);
      if (number !== undefined) groups[number] = 1;
    }
    return { classes, groups };
  }

  /** A test of the filter on a row, as the database is now: by its key alone where the key answers the filter. */
  admits(filter: MemoryFilter): (seq: number) => boolean {
    this.current();
    if (!keyAnswers(filter)) {
      return (seq) => {
        const facets = this.keywords.facetsOf(seq);
        return facets !== undefined && matchesFilter(facets, filter);
      };
    }
    const admitted = this.admitting(filter);
    if (admitted.groups === undefined) {
      // Only the class counts: its one-byte table stays in cache through a vector search's thousands of tests.
      const { classes } = admitted;
      return (seq) => {
        const rowClass = this.keywords.classOf(seq);
        return rowClass !== undefined && classes[rowClass] === 1;
      };
    }
    return (seq) => {
      const key = this.keywords.keyOf(seq);
      return key !== undefined && admits(admitted, key);
    };
  }

  /** A lookup of what ranking needs of a row, without reading it, as the database is now. */
  facets(): (seq: number) => RankingFacets | undefined {
    this.current();
    return (seq) => this.keywords.facetsOf(seq);
  }

  /** Rows reached through the entity graph (see EntityIndex.search), within the given projects and statuses. */
  searchGraph(search: GraphSearch): EntityHit<RankingFacets>[] {
    this.current();
    const { projects, statuses } = search;
    const accept = (facets: RankingFacets) => statuses.includes(facets.status) && (projects === undefined || projects.includes(facets.project));
    return this.entities.search({ ...search, accept });
  }

  /**
   * For each row, the rows up to `reach` places before and after it in its session that the
   * filter admits (see SessionIndex), as rows with score 0.
   */
  sessionNeighbours(seqs: readonly number[], filter: MemoryFilter, reach: number): Map<number, RankedRow[]> {
    const admitted = this.admits(filter);
    const found = new Map<number, RankedRow[]>();
    for (const seq of seqs) {
      const neighbours = this.sessions.neighbours(seq, reach, admitted);
      if (neighbours.length > 0) found.set(seq, neighbours.map((other) => ({ seq: other, facets: this.keywords.facetsOf(other) as RankingFacets, score: 0 })));
    }
    return found;
  }

  private current(): void {
    while (this.loadStep());
    this.catchUp();
  }

  private catchUp(): void {
    const notes = new Map((this.changed.all() as { seq: number; text: number }[]).map((row) => [row.seq, row.text]));
    const inTransaction = this.db.inTransaction;
    // Reading a row again is right in any view, a transaction's included.
    for (const [seq, text] of this.recheck) notes.set(seq, Math.max(text, notes.get(seq) ?? 0));
    if (notes.size === 0) return;
    this.apply(notes);
    if (inTransaction) {
      for (const [seq, text] of notes) this.recheck.set(seq, Math.max(text, this.recheck.get(seq) ?? 0));
      return;
    }
    this.clear.run();
    this.recheck.clear();
  }

  /** Mirrors the noted rows as they are now: text = 1 re-indexes a row, 0 refreshes what ranking reads of it. */
  private apply(notes: ReadonlyMap<number, number>): void {
    // Rows past the first load's progress are indexed as they are when it reaches them: an
    // import during the load is not read twice.
    const seqs = this.loaded ? [...notes.keys()] : [...notes.keys()].filter((seq) => seq <= this.loadedThrough);
    if (seqs.length === 0) return;
    const rows = this.readSome.all(JSON.stringify(seqs)) as IndexedRow[];
    const links = byRow(this.linksOfSome.all(JSON.stringify(rows.map((row) => row.seq))) as Link[]);
    const present = new Set<number>();
    for (const row of rows) {
      present.add(row.seq);
      if (notes.get(row.seq) === 1 || !this.refresh(row)) this.put(row, links.get(row.seq) ?? []);
    }
    for (const seq of seqs) {
      if (present.has(seq)) continue;
      this.keywords.delete(seq);
      this.entities.delete(seq);
      this.sessions.delete(seq);
    }
  }

  /** Updates what filters and ranking read of an indexed row, leaving its tokens; false when it is not indexed. */
  private refresh(row: IndexedRow): boolean {
    const facets = this.facetsOf(row);
    if (!this.keywords.setFacets(row.seq, this.keyOf(facets), facets)) return false;
    this.entities.setFacets(row.seq, facets);
    this.sessions.set(row.seq, facets.project, facets.sessionId, facets.createdAt);
    return true;
  }

  private keyOf(facets: RankingFacets): number {
    let project = this.projectNumbers.get(facets.project);
    if (project === undefined) {
      project = this.projectNames.push(facets.project) - 1;
      this.projectNumbers.set(facets.project, project);
    }
    return project * KEY_CLASSES + classOf(facets.status, facets.kind);
  }

  private facetsOf(row: IndexedRow): RankingFacets {
    const facets = facetsOf(row);
    facets.project = this.share(facets.project);
    facets.sessionId = this.share(facets.sessionId);
    return facets;
  }

  private share(text: string): string {
    const known = this.shared.get(text);
    if (known !== undefined) return known;
    this.shared.set(text, text);
    return text;
  }

  private put(row: IndexedRow, entityKeys: readonly string[]): void {
    const facets = this.facetsOf(row);
    const columns = [row.content, row.problem, row.solution, row.concepts, row.files, row.tags].map(tokenize);
    this.keywords.set(row.seq, columns, PROJECT_KEY_TOKENS, this.keyOf(facets), facets);
    this.entities.set(row.seq, entityKeys, facets);
    this.sessions.set(row.seq, facets.project, facets.sessionId, facets.createdAt);
  }
}

interface Link {
  seq: number;
  key: string;
}

function byRow(links: readonly Link[]): Map<number, string[]> {
  const keys = new Map<number, string[]>();
  for (const { seq, key } of links) {
    const list = keys.get(seq);
    if (list) list.push(key);
    else keys.set(seq, [key]);
  }
  return keys;
}

/** A row's ranking facets, its values repaired as rowToMemory repairs them (and reports them, on the memory's first read). */
function facetsOf(row: IndexedRow): RankingFacets {
  const read = new ColumnReader(row as unknown as Record<string, unknown>, []);
  return {
    id: read.text("id"),
    project: read.text("project"),
    kind: read.oneOf("kind", MEMORY_KINDS, READ_AS.kind),
    status: read.oneOf("status", MEMORY_STATUSES, READ_AS.status),
    sessionId: read.text("session_id"),
    pinned: row.pinned === 1,
    createdAt: read.time("created_at") ?? READ_AS.requiredTime,
    reviewAt: read.time("review_at"),
    importance: read.number("importance", READ_AS.importance),
    intensity: read.number("intensity", READ_AS.intensity),
    confidence: read.number("confidence", READ_AS.confidence),
    accessCount: read.number("access_count", READ_AS.accessCount),
  };
}

/** Whether a row's key answers the filter: it sets no field but projects, statuses and kinds. */
function keyAnswers(filter: MemoryFilter): boolean {
  return Object.entries(filter).every(([field, value]) => KEYED_FIELDS.has(field) || value === undefined || value === false || value === "");
}

function classOf(status: MemoryStatus, kind: MemoryKind): number {
  return MEMORY_STATUSES.indexOf(status) * KINDS_PER_STATUS + MEMORY_KINDS.indexOf(kind);
}
