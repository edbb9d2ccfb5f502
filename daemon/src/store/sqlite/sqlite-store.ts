import fs from "node:fs";
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { ConflictError, NotFoundError } from "../../errors.js";
import type { MemoryEvent, MemoryRecord } from "../../memory/memory.js";
import type {
  AbsentPhrase, GraphHit, GraphSearch, ImportCounts, KeywordScope, KeywordSearch, LedgerCounts, LinkedEntity, MemoryFilter, MemoryStore, NewEvent, PageRequest,
  ProjectGraph, ProjectInfo, RankedRow, RankingFacets, ScoredMemory, StoreStats,
} from "../store.js";
import { queryPhrases } from "../../keywords/query-phrases.js";
import { ChangeCapture } from "./change-capture.js";
import type { QueryPhrase, WeightedPhrase } from "../../keywords/keyword-index.js";
import { EntityGraph } from "./entity-graph.js";
import { MEMORY_COLUMNS, type MemoryRow, memoryToRow, readMemoriesBySeq, rowToMemory, sameRow, type UnreadableRowReport } from "./memory-row.js";
import { MIGRATIONS, type Migration } from "./migrations.js";
import { openDatabase } from "./open-database.js";
import { SearchMirror } from "./search-mirror.js";
import { SqliteContradictions } from "./sqlite-contradictions.js";
import { SqliteInjectionLog } from "./sqlite-injection-log.js";
import { SqliteLlmSpend } from "./sqlite-llm-spend.js";
import { SqliteMemoryFileSyncs } from "./sqlite-memory-file-syncs.js";
import { SqliteSessionInjections } from "./sqlite-session-injections.js";
import { SqliteSkillDecisions } from "./sqlite-skill-decisions.js";
import { SqliteHubStore } from "./sqlite-hub-store.js";
import { SqliteVaultStore } from "./sqlite-vault-store.js";
import { SqliteVectorStore } from "./sqlite-vector-store.js";
import { type StatementCache, statementCache } from "./statement-cache.js";

export interface SqliteStoreOptions {
  file: string;
  backupDir: string;
  now: () => number;
  /** Replaces the built-in migrations (tests use it to simulate upgrades). */
  migrations?: readonly Migration[];
  /** The entities a memory names, linked in the entity graph whenever it is written (store/open-store.ts gives memd's own). */
  entitiesOf: (memory: MemoryRecord) => readonly LinkedEntity[];
  /** The normalised content hash that finds exact duplicates (store/open-store.ts gives memd's own). */
  contentHashOf: (content: string) => string;
  /** Told, once per memory, of a stored row that could only be read by repairing some of its values. */
  onUnreadableRow?: UnreadableRowReport;
  /** Told of an error thrown by a listener of the change feed (the other listeners are still told). */
  onChangeListenerError?: (error: unknown) => void;
}

const EXPORT_PAGE = 500;
/** Memories read at a time while every memory is linked at open. */
const RELINK_STEP = 1000;
/** Distinct unreadable memories reported per process: enough to find them, never a flood. */
const MAX_REPORTED_ROWS = 1000;

interface Where {
  sql: string;
  params: unknown[];
}

/** The SQLite implementation of MemoryStore (better-sqlite3, WAL, FTS5). */
export class SqliteStore implements MemoryStore {
  readonly schemaVersion: number;
  /** The copy taken before a migration at open, if one ran. */
  readonly backupFile: string | null;
  /** Embedding spaces, the embedding queue and vectors, on the same connection. */
  readonly vectors: SqliteVectorStore;
  /** The vault's outbox and the files it wrote, on the same connection. */
  readonly vault: SqliteVaultStore;
  /** The hub's outbox, the hub's versions and the stream's cursors, on the same connection. */
  readonly hub: SqliteHubStore;
  /** The small concerns of MemoryStore, each its own class on the same connection. */
  readonly injections: SqliteSessionInjections;
  readonly injectionLog: SqliteInjectionLog;
  readonly skillDecisions: SqliteSkillDecisions;
  readonly memoryFileSyncs: SqliteMemoryFileSyncs;
  readonly llmSpend: SqliteLlmSpend;
  /** What each committed transaction changed, whichever code path wrote it. */
  readonly changes: ChangeCapture;
  readonly contradictions: SqliteContradictions;
  private readonly db: Database.Database;
  private readonly file: string;
  private readonly now: () => number;
  private readonly insertStmt: Database.Statement;
  private readonly updateStmt: Database.Statement;
  private readonly getStmt: Database.Statement;
  private readonly graph: EntityGraph;
  private search: SearchMirror;
  private mirroring: NodeJS.Immediate | undefined;
  private readonly sql: StatementCache;
  private readonly entitiesOf: (memory: MemoryRecord) => readonly LinkedEntity[];
  private readonly contentHashOf: (content: string) => string;
  /** Reports each repaired memory once: a row is read on every search that finds it. */
  private readonly reportUnreadable: UnreadableRowReport;
  private readonly readRow = (row: MemoryRow): MemoryRecord => rowToMemory(row, this.reportUnreadable);

  constructor(options: SqliteStoreOptions) {
    const opened = openDatabase({
      file: options.file,
      backupDir: options.backupDir,
      migrations: options.migrations ?? MIGRATIONS,
      now: options.now,
    });
    this.db = opened.db;
    this.sql = statementCache(this.db);
    this.schemaVersion = opened.schemaVersion;
    this.backupFile = opened.backupFile;
    this.file = options.file;
    this.now = options.now;
    const reported = new Set<string>();
    this.reportUnreadable = (id, problems) => {
      if (reported.has(id) || reported.size >= MAX_REPORTED_ROWS) return;
      reported.add(id);
      options.onUnreadableRow?.(id, problems);
    };
    this.vectors = new SqliteVectorStore(this.db, this.reportUnreadable);
    this.vault = new SqliteVaultStore(this.db);
    this.hub = new SqliteHubStore(this.db, this);
    this.injections = new SqliteSessionInjections(this.db);
    this.injectionLog = new SqliteInjectionLog(this.db);
    this.skillDecisions = new SqliteSkillDecisions(this.db);
    this.memoryFileSyncs = new SqliteMemoryFileSyncs(this.db);
    this.llmSpend = new SqliteLlmSpend(this.db);
    this.contradictions = new SqliteContradictions(this.db, this);
    const columns = MEMORY_COLUMNS.join(", ");
    const values = MEMORY_COLUMNS.map((c) => `@${c}`).join(", ");
    this.insertStmt = this.sql(`INSERT INTO memories (${columns}) VALUES (${values})`);
    const sets = MEMORY_COLUMNS.filter((c) => c !== "id").map((c) => `${c} = @${c}`).join(", ");
    this.updateStmt = this.sql(`UPDATE memories SET ${sets} WHERE id = @id`);
    this.getStmt = this.sql("SELECT * FROM memories WHERE id = ?");
    this.graph = new EntityGraph(this.db);
    this.entitiesOf = options.entitiesOf;
    this.contentHashOf = options.contentHashOf;
    if (this.graph.isEmpty()) this.relinkAll();
    this.hashUnhashed();
    this.search = this.loadMirror();
    // Last: what opening the database wrote (links, hashes) is nobody's news.
    this.changes = new ChangeCapture(this.db, options.onChangeListenerError ?? (() => {}));
  }

  /** A small database is in memory at once; a large one loads in steps between requests. */
  private loadMirror(): SearchMirror {
    const mirror = new SearchMirror(this.db);
    if (mirror.loadStep()) this.mirrorLater();
    return mirror;
  }

  /** Goes on loading the search mirror, then applying noted changes, a step per turn of the event loop, until nothing is left. */
  private mirrorLater(): void {
    if (this.mirroring) return;
    this.mirroring = setImmediate(() => {
      this.mirroring = undefined;
      if (this.search.loadStep() || this.search.catchUpStep()) this.mirrorLater();
    });
  }

  /** Hashes memories written before hashing existed. */
  private hashUnhashed(): void {
    const rows = this.sql("SELECT seq, content FROM memories WHERE content_hash = ''").all() as { seq: number; content: string }[];
    if (rows.length === 0) return;
    const set = this.sql("UPDATE memories SET content_hash = ? WHERE seq = ?");
    this.db.transaction(() => {
      for (const row of rows) set.run(this.contentHashOf(row.content), row.seq);
    })();
  }

  /** Derived columns and links that follow every write of a memory. */
  private afterWrite(seq: number, memory: MemoryRecord): void {
    this.graph.setLinks(seq, this.entitiesOf(memory));
    this.sql("UPDATE memories SET content_hash = ? WHERE seq = ?").run(this.contentHashOf(memory.content), seq);
  }

  /**
   * Links every memory to its entities (a database from before the graph), in one transaction:
   * this runs only while the graph is empty, so a start-up stopped halfway must leave it empty.
   */
  private relinkAll(): void {
    this.db.transaction(() => {
      for (const _ of this.relinkInSteps(RELINK_STEP));
    })();
  }

  *relinkInSteps(limit: number): Iterable<number> {
    let after = 0;
    for (;;) {
      const rows = this.sql("SELECT * FROM memories WHERE seq > ? ORDER BY seq LIMIT ?").all(after, limit) as (MemoryRow & { seq: number })[];
      const last = rows.at(-1);
      if (!last) return;
      this.db.transaction(() => {
        for (const row of rows) this.afterWrite(row.seq, this.readRow(row));
      }).immediate();
      after = last.seq;
      yield rows.length;
    }
  }

  insert(memory: MemoryRecord, event?: NewEvent): number {
    try {
      return this.db.transaction(() => {
        const seq = Number(this.insertStmt.run(memoryToRow(memory)).lastInsertRowid);
        this.afterWrite(seq, memory);
        this.sql("INSERT INTO dedup_pending (memory_seq) SELECT ? WHERE EXISTS (SELECT 1 FROM embedding_spaces WHERE state = 'active')").run(seq);
        if (event) this.recordEvent(memory.id, event);
        return seq;
      }).immediate();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ConflictError(`a memory with id ${memory.id} already exists`, { cause: error });
      }
      throw error;
    }
  }

  get(id: string): MemoryRecord | undefined {
    const row = this.getStmt.get(id) as MemoryRow | undefined;
    return row ? this.readRow(row) : undefined;
  }

  seqOf(id: string): number | undefined {
    return (this.sql("SELECT seq FROM memories WHERE id = ?").get(id) as { seq: number } | undefined)?.seq;
  }

  modify(id: string, change: (current: MemoryRecord) => MemoryRecord, event?: (current: MemoryRecord) => NewEvent): MemoryRecord {
    return this.db.transaction(() => {
      const current = this.get(id);
      if (!current) throw new NotFoundError(`no memory has id ${id}`);
      const next = { ...change(current), id };
      this.updateStmt.run(memoryToRow(next));
      this.afterWrite(this.seqOf(id) as number, next);
      if (event) this.recordEvent(id, event(current));
      return next;
    }).immediate();
  }

  supersede(oldId: string, change: (old: MemoryRecord) => { next: MemoryRecord; old: MemoryRecord }, event: NewEvent) {
    return this.db.transaction(() => {
      const current = this.get(oldId);
      if (!current) throw new NotFoundError(`no memory has id ${oldId}`);
      const result = change(current);
      this.updateStmt.run(memoryToRow(result.old));
      this.afterWrite(this.seqOf(oldId) as number, result.old);
      this.recordEvent(oldId, event);
      const seq = Number(this.insertStmt.run(memoryToRow(result.next)).lastInsertRowid);
      this.afterWrite(seq, result.next);
      this.recordEvent(result.next.id, { ...event, action: "created", detail: `supersedes ${oldId}` });
      return result;
    }).immediate();
  }

  lastReinforcements(): Map<string, number> {
    const rows = this
      .sql("SELECT memory_id, MAX(at) AS at FROM memory_events WHERE action = 'reinforced' GROUP BY memory_id")
      .all() as { memory_id: string; at: number }[];
    return new Map(rows.map((r) => [r.memory_id, r.at]));
  }

  events(memoryIds: readonly string[]): MemoryEvent[] {
    const rows = this
      .sql("SELECT memory_id, at, action, session_id, detail FROM memory_events WHERE memory_id IN (SELECT value FROM json_each(?)) ORDER BY id")
      .all(JSON.stringify(memoryIds)) as { memory_id: string; at: number; action: MemoryEvent["action"]; session_id: string; detail: string }[];
    return rows.map((r) => ({ memoryId: r.memory_id, at: r.at, action: r.action, sessionId: r.session_id, detail: r.detail }));
  }

  importEvents(events: readonly MemoryEvent[]): number {
    const known = this.sql("SELECT 1 FROM memory_events WHERE memory_id = ? AND at = ? AND action = ? AND session_id = ? AND detail = ? LIMIT 1");
    return this.db
      .transaction(() => {
        let added = 0;
        for (const event of events) {
          if (known.get(event.memoryId, event.at, event.action, event.sessionId, event.detail) !== undefined) continue;
          this.recordEvent(event.memoryId, event);
          added += 1;
        }
        return added;
      })
      .immediate();
  }

  private recordEvent(memoryId: string, event: NewEvent): void {
    this
      .sql("INSERT INTO memory_events (memory_id, at, action, session_id, detail) VALUES (?, ?, ?, ?, ?)")
      .run(memoryId, event.at, event.action, event.sessionId, event.detail);
  }

  list(filter: MemoryFilter, page: PageRequest): MemoryRecord[] {
    const where = filterClause(filter, "");
    if (page.afterId) {
      where.sql += " AND id < ?";
      where.params.push(page.afterId);
    }
    // A time window within projects is narrow; without statistics the planner would walk the
    // status index newest first through every memory after the window instead.
    const index = filter.createdAfter !== undefined && filter.projects !== undefined ? " INDEXED BY memories_project_created" : "";
    const rows = this
      .sql(`SELECT * FROM memories${index} WHERE ${where.sql} ORDER BY id DESC LIMIT ?`)
      .all(...where.params, page.limit) as MemoryRow[];
    return rows.map(this.readRow);
  }

  /** BM25 over the in-memory copy of the FTS5 index (see SearchMirror), which ranks exactly as FTS5 does. */
  searchKeyword(search: KeywordSearch): ScoredMemory[] {
    const rows = this.searchKeywordScopes(search.query, [search])[0] as RankedRow[];
    const memories = this.memoriesBySeq(rows.map((row) => row.seq));
    return rows.map((row) => ({ memory: memories.get(row.seq) as MemoryRecord, score: row.score }));
  }

  searchKeywordScopes(query: string, scopes: readonly KeywordScope[], alsoPhrases: readonly WeightedPhrase[] = []): RankedRow[][] {
    const own = queryPhrases(query) ?? [];
    if (own.length === 0 && alsoPhrases.length === 0) return scopes.map(() => []);
    const phrases = [...own, ...alsoPhrases.map((p) => p.tokens)];
    const weights = [...own.map(() => 1), ...alsoPhrases.map((p) => p.weight)];
    return this.search.searchKeyword(phrases, scopes, weights).map((hits) => hits.map(({ seq, score, facets }) => ({ seq, score, facets })));
  }

  absentPhrases(query: string, filter: MemoryFilter): AbsentPhrase[] {
    const within = new Set(filter.projects ?? []);
    const anywhere = { ...filter, projects: undefined };
    return (queryPhrases(query) ?? []).flatMap((phrase) => {
      const projects = this.search.projectCounts(phrase, anywhere);
      return projects.size === 0 || [...projects.keys()].some((project) => within.has(project)) ? [] : [{ phrase, projects }];
    });
  }

  searchGraph(search: GraphSearch): GraphHit[] {
    return this.search.searchGraph(search);
  }

  sessionNeighbours(memorySeqs: readonly number[], filter: MemoryFilter, reach: number): Map<number, RankedRow[]> {
    return this.search.sessionNeighbours(memorySeqs, filter, reach);
  }

  admits(filter: MemoryFilter): (memorySeq: number) => boolean {
    return this.search.admits(filter);
  }

  rankingFacets(): (memorySeq: number) => RankingFacets | undefined {
    return this.search.facets();
  }

  // Rows changed by this connection, triggers' included: the daemon's is the database's one writer.
  changeCount(): number {
    return this.sql("SELECT total_changes()").pluck().get() as number;
  }

  memoriesBySeq(memorySeqs: readonly number[]): Map<number, MemoryRecord> {
    return new Map(readMemoriesBySeq(this.db, memorySeqs, this.reportUnreadable).map(({ seq, memory }) => [seq, memory]));
  }

  takeDedupPending(memorySeqs: readonly number[]): number[] {
    return this.db.transaction(() =>
      (
        this.sql("DELETE FROM dedup_pending WHERE memory_seq IN (SELECT value FROM json_each(?)) RETURNING memory_seq").all(
          JSON.stringify(memorySeqs),
        ) as { memory_seq: number }[]
      ).map((row) => row.memory_seq),
    )();
  }

  recordAccess(ids: readonly string[], at: number): void {
    if (ids.length === 0) return;
    this
      .sql("UPDATE memories SET access_count = access_count + 1, last_accessed_at = ? WHERE id IN (SELECT value FROM json_each(?))")
      .run(at, JSON.stringify(ids));
  }

  importMany(memories: readonly MemoryRecord[]): ImportCounts {
    const imported = this.db.transaction(() => {
      const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0 };
      for (const memory of memories) {
        const row = memoryToRow(memory);
        const existing = this.getStmt.get(memory.id) as MemoryRow | undefined;
        if (!existing) {
          const seq = Number(this.insertStmt.run(row).lastInsertRowid);
          this.afterWrite(seq, memory);
          counts.created += 1;
        } else if (sameRow(existing, row)) {
          counts.unchanged += 1;
        } else {
          this.updateStmt.run(row);
          this.afterWrite(this.seqOf(memory.id) as number, memory);
          counts.updated += 1;
        }
      }
      return counts;
    }).immediate();
    // Mirrored in steps from now, not all by the next search.
    this.mirrorLater();
    return imported;
  }

  *exportAll(project?: string): Iterable<MemoryRecord> {
    let after = "";
    const byProject = project !== undefined;
    const stmt = this.sql(
      `SELECT * FROM memories WHERE id > ? ${byProject ? "AND project = ?" : ""} ORDER BY id LIMIT ${EXPORT_PAGE}`,
    );
    for (;;) {
      const rows = (byProject ? stmt.all(after, project) : stmt.all(after)) as MemoryRow[];
      for (const row of rows) yield this.readRow(row);
      const last = rows.at(-1);
      if (!last || rows.length < EXPORT_PAGE) return;
      after = last.id;
    }
  }

  stats(project?: string): StoreStats {
    const scope = project === undefined ? "" : "WHERE project = ?";
    const params = project === undefined ? [] : [project];
    const group = (column: string, activeOnly: boolean): Record<string, number> => {
      const conditions = [scope.replace("WHERE ", ""), activeOnly ? "status = 'active'" : ""].filter(Boolean);
      const where = conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
      const rows = this
        .sql(`SELECT ${column} AS key, COUNT(*) AS n FROM memories ${where} GROUP BY ${column} ORDER BY n DESC`)
        .all(...params) as { key: string; n: number }[];
      return Object.fromEntries(rows.map((r) => [r.key, r.n]));
    };
    const byStatus = group("status", false);
    return {
      total: Object.values(byStatus).reduce((sum, n) => sum + n, 0),
      byStatus,
      byKind: group("kind", true),
      byProject: group("project", true),
      databaseBytes: fileSize(this.file) + fileSize(`${this.file}-wal`),
      schemaVersion: this.schemaVersion,
    };
  }

  rebuildKeywordIndex(): void {
    this.sql("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')").run();
    // The copy follows only this connection's writes: one made by anything else (the sqlite3
    // shell, a restored file) is in the rebuilt table, and in the copy once reloaded.
    this.search = this.loadMirror();
  }

  purgeArchived(backupFile: string): number[] {
    this.sql("VACUUM INTO ?").run(backupFile);
    return this.db.transaction(() => {
      const rows = this.sql("SELECT id, seq FROM memories WHERE status = 'archived'").all() as { id: string; seq: number }[];
      const ids = JSON.stringify(rows.map((r) => r.id));
      this.sql("DELETE FROM memory_events WHERE memory_id IN (SELECT value FROM json_each(?))").run(ids);
      this.sql("DELETE FROM memories WHERE status = 'archived'").run();
      return rows.map((r) => r.seq);
    }).immediate();
  }

  ledger(project?: string): LedgerCounts {
    const scope = project === undefined ? "1 = 1" : "project = @project";
    const row = this
      .sql(
        `SELECT
           SUM(status = 'active') AS active,
           SUM(status = 'staged') AS staged,
           SUM(provenance = 'distilled' AND status = 'active') AS promoted,
           SUM(kind = 'episode' AND status = 'active') AS episodes,
           SUM(status = 'archived') AS archived,
           SUM(status = 'superseded') AS superseded,
           SUM(status = 'archived' AND archive_reason = 'consolidated') AS consolidated,
           SUM(status = 'archived' AND archive_reason = 'expired') AS expired,
           SUM(status = 'archived' AND archive_reason = 'decayed') AS decayed,
           (SELECT COUNT(DISTINCT e.memory_id) FROM memory_events e JOIN memories r ON r.id = e.memory_id
             WHERE e.action = 'reinforced' AND ${scope.replace("project", "r.project")}) AS reinforced
         FROM memories WHERE ${scope}`,
      )
      .get(project === undefined ? {} : { project }) as Record<keyof LedgerCounts, number | null>;
    return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value ?? 0])) as unknown as LedgerCounts;
  }

  projectGraph(project: string, limit: number): ProjectGraph {
    const memories = this
      .sql("SELECT seq, id, content, kind FROM memories WHERE project = ? AND status = 'active' ORDER BY created_at DESC LIMIT ?")
      .all(project, limit) as ({ seq: number } & Pick<MemoryRecord, "id" | "content" | "kind">)[];
    if (memories.length === 0) return { memories: [], entities: [], links: [] };
    const bySeq = new Map(memories.map((m) => [m.seq, m.id]));
    const rows = this
      .sql(
        `SELECT me.memory_seq AS seq, e.key AS key, e.type AS type
         FROM memory_entities me JOIN entities e ON e.id = me.entity_id
         WHERE me.memory_seq IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify([...bySeq.keys()])) as { seq: number; key: string; type: string }[];
    const named = new Map<string, number>();
    for (const row of rows) named.set(row.key, (named.get(row.key) ?? 0) + 1);
    const linking = rows.filter((row) => (named.get(row.key) ?? 0) >= 2);
    const entities = new Map(linking.map((row) => [row.key, { key: row.key, type: row.type }]));
    return {
      memories: memories.map(({ id, content, kind }) => ({ id, content, kind })),
      entities: [...entities.values()],
      links: linking.map((row) => ({ memoryId: bySeq.get(row.seq) as string, entityKey: row.key })),
    };
  }

  eventsPerDay(since: number, project?: string): { day: string; action: string; count: number }[] {
    const scope = project === undefined ? "" : "AND m.project = @project";
    return this
      .sql(
        `SELECT strftime('%Y-%m-%d', e.at / 1000, 'unixepoch') AS day,
                CASE WHEN e.action = 'archived' AND e.detail LIKE 'consolidated into %' THEN 'consolidated' ELSE e.action END AS action,
                COUNT(*) AS count
         FROM memory_events e JOIN memories m ON m.id = e.memory_id
         WHERE e.at >= @since ${scope}
         GROUP BY day, action ORDER BY day, action`,
      )
      .all(project === undefined ? { since } : { since, project }) as { day: string; action: string; count: number }[];
  }

  projects(): ProjectInfo[] {
    const rows = this
      .sql(
        `SELECT m.project AS name, COALESCE(p.root, '') AS root,
                SUM(m.status = 'active') AS active, MAX(m.created_at) AS last
         FROM memories m LEFT JOIN projects p ON p.name = m.project
         GROUP BY m.project ORDER BY last DESC`,
      )
      .all() as { name: string; root: string; active: number; last: number | null }[];
    return rows.map((r) => ({ name: r.name, root: r.root, activeCount: r.active, lastSaveAt: r.last }));
  }

  projectForRoot(root: string, preferredName: string): string {
    // A known root is a plain read, which needs no write lock: a search from a known
    // repository must not wait for another process's write transaction.
    const known = (root: string) => (this.sql("SELECT name FROM projects WHERE root = ?").get(root) as { name: string } | undefined)?.name;
    const existing = known(root);
    if (existing !== undefined) return existing;
    return this.db.transaction(() => {
      const registered = known(root);
      if (registered !== undefined) return registered;
      const taken = this.sql("SELECT 1 FROM projects WHERE name = ?").get(preferredName) !== undefined;
      // Two repositories with the same folder name stay apart: the second gets a suffix.
      const name = taken
        ? `${preferredName}-${createHash("sha256").update(root).digest("hex").slice(0, 6)}`
        : preferredName;
      this.sql("INSERT INTO projects (name, root, created_at) VALUES (?, ?, ?)").run(name, root, this.now());
      return name;
    }).immediate();
  }

  close(): void {
    if (this.mirroring) clearImmediate(this.mirroring);
    this.changes.close();
    this.db.close();
  }

  reinforcements(memoryIds: readonly string[]): Map<string, { sessionId: string; at: number }[]> {
    const rows = this
      .sql(
        `SELECT memory_id, session_id, at FROM memory_events
         WHERE action = 'reinforced' AND memory_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
      )
      .all(JSON.stringify(memoryIds)) as { memory_id: string; session_id: string; at: number }[];
    const out = new Map<string, { sessionId: string; at: number }[]>();
    for (const row of rows) {
      const list = out.get(row.memory_id) ?? [];
      list.push({ sessionId: row.session_id, at: row.at });
      out.set(row.memory_id, list);
    }
    return out;
  }

  withSameContent(content: string): MemoryRecord[] {
    const rows = this
      // "content_hash != ''" lets SQLite use the partial index (it cannot infer it from a parameter).
      .sql("SELECT * FROM memories WHERE content_hash = ? AND content_hash != '' ORDER BY id")
      .all(this.contentHashOf(content)) as MemoryRow[];
    return rows.map(this.readRow);
  }

  projectRoot(name: string): string | undefined {
    return (this.sql("SELECT root FROM projects WHERE name = ?").get(name) as { root: string } | undefined)?.root;
  }

  projectVersions(projects: readonly string[]): Map<string, number> {
    const rows = this
      .sql("SELECT project, version FROM project_versions WHERE project IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify(projects)) as { project: string; version: number }[];
    return new Map(rows.map((r) => [r.project, r.version]));
  }
}

function filterClause(filter: MemoryFilter, prefix: string): Where {
  const parts: string[] = ["1 = 1"];
  const params: unknown[] = [];
  const inList = (column: string, values: readonly unknown[]): void => {
    parts.push(`${prefix}${column} IN (${values.map(() => "?").join(", ")})`);
    params.push(...values);
  };
  if (filter.projects !== undefined) {
    if (filter.projects.length === 0) parts.push("0 = 1");
    else inList("project", filter.projects);
  }
  if (filter.kinds.length > 0) inList("kind", filter.kinds);
  if (filter.statuses.length > 0) inList("status", filter.statuses);
  if (filter.sessionId) {
    // The second condition lets SQLite use the partial index on session_id.
    parts.push(`${prefix}session_id = ? AND ${prefix}session_id != ''`);
    params.push(filter.sessionId);
  }
  if (filter.pinnedOnly) parts.push(`${prefix}pinned = 1`);
  if (filter.createdAfter !== undefined) {
    parts.push(`${prefix}created_at >= ?`);
    params.push(filter.createdAfter);
  }
  if (filter.createdBefore !== undefined) {
    parts.push(`${prefix}created_at < ?`);
    params.push(filter.createdBefore);
  }
  if (filter.withReviewDate) parts.push(`${prefix}review_at IS NOT NULL`);
  return { sql: parts.join(" AND "), params };
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE";
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
