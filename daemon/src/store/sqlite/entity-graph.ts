import type Database from "better-sqlite3";
import type { MemoryRecord } from "../../memory/memory.js";
import type { GraphHit, GraphSearch, LinkedEntity } from "../store.js";
import { type MemoryRow, rowToMemory } from "./memory-row.js";

/** Links memories to the entities they name; keeps SQL for the graph in one place. */
export class EntityGraph {
  private readonly upsertEntity: Database.Statement;
  private readonly entityId: Database.Statement;
  private readonly unlink: Database.Statement;
  private readonly link: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.upsertEntity = db.prepare("INSERT INTO entities (key, type) VALUES (?, ?) ON CONFLICT (key) DO NOTHING");
    this.entityId = db.prepare("SELECT id FROM entities WHERE key = ?");
    this.unlink = db.prepare("DELETE FROM memory_entities WHERE memory_seq = ?");
    this.link = db.prepare("INSERT OR IGNORE INTO memory_entities (entity_id, memory_seq) VALUES (?, ?)");
  }

  /** Replaces a memory's links; call inside the transaction that writes the memory. */
  setLinks(memorySeq: number, entities: readonly LinkedEntity[]): void {
    this.unlink.run(memorySeq);
    for (const entity of entities) {
      this.upsertEntity.run(entity.key, entity.type);
      const row = this.entityId.get(entity.key) as { id: number };
      this.link.run(row.id, memorySeq);
    }
  }

  isEmpty(): boolean {
    return this.db.prepare("SELECT 1 FROM memory_entities LIMIT 1").get() === undefined;
  }

  /**
   * Memories linked to the query's entities, rarer entities counting more (1 / memories per
   * entity), then one hop out: memories sharing an entity with the best direct hits, at a
   * discount. Both stay within the given projects.
   */
  search(search: GraphSearch): GraphHit[] {
    const known = this.db
      .prepare(
        `SELECT e.id, e.key, COUNT(me.memory_seq) AS df FROM entities e JOIN memory_entities me ON me.entity_id = e.id
         WHERE e.key IN (SELECT value FROM json_each(?)) GROUP BY e.id`,
      )
      .all(JSON.stringify(search.keys)) as { id: number; key: string; df: number }[];
    if (known.length === 0) return [];
    const scope = scopeSql(search);
    const direct = this.scored(known.map((e) => ({ ...e, weight: 1 / e.df })), scope, search.limit);
    const directSeqs = direct.slice(0, search.hopFrom).map((hit) => hit.seq);
    const hop = this.hopEntities(directSeqs, new Set(known.map((e) => e.id)), search.hopEntities);
    const hopped = this.scored(hop.map((e) => ({ ...e, weight: search.hopDiscount / e.df })), scope, search.limit);
    const hits = new Map<number, GraphHit>();
    for (const hit of [...direct, ...hopped]) {
      const existing = hits.get(hit.seq);
      if (existing) existing.score += hit.score;
      else hits.set(hit.seq, hit);
    }
    return [...hits.values()].sort((a, b) => b.score - a.score || a.seq - b.seq).slice(0, search.limit);
  }

  private scored(entities: { id: number; key: string; weight: number }[], scope: { sql: string; params: unknown[] }, limit: number): GraphHit[] {
    if (entities.length === 0) return [];
    const weights = new Map(entities.map((e) => [e.id, e]));
    const rows = this.db
      .prepare(
        `SELECT me.entity_id, m.* FROM memory_entities me JOIN memories m ON m.seq = me.memory_seq
         WHERE me.entity_id IN (SELECT value FROM json_each(?)) AND ${scope.sql}`,
      )
      .all(JSON.stringify([...weights.keys()]), ...scope.params) as (MemoryRow & { entity_id: number; seq: number })[];
    const bySeq = new Map<number, GraphHit>();
    for (const row of rows) {
      const entity = weights.get(row.entity_id);
      if (!entity) continue;
      const hit = bySeq.get(row.seq) ?? { seq: row.seq, memory: rowToMemory(row) as MemoryRecord, score: 0, path: [] };
      hit.score += entity.weight;
      hit.path.push(entity.key);
      bySeq.set(row.seq, hit);
    }
    return [...bySeq.values()].sort((a, b) => b.score - a.score || a.seq - b.seq).slice(0, limit);
  }

  /** The entities that co-occur most with the given memories, excluding the query's own. */
  private hopEntities(memorySeqs: readonly number[], exclude: Set<number>, limit: number) {
    if (memorySeqs.length === 0 || limit === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT e.id, e.key, COUNT(*) AS shared,
                (SELECT COUNT(*) FROM memory_entities x WHERE x.entity_id = e.id) AS df
         FROM memory_entities me JOIN entities e ON e.id = me.entity_id
         WHERE me.memory_seq IN (SELECT value FROM json_each(?))
         GROUP BY e.id ORDER BY shared DESC, df ASC LIMIT ?`,
      )
      .all(JSON.stringify(memorySeqs), limit + exclude.size) as { id: number; key: string; shared: number; df: number }[];
    // An entity on nearly every memory (a project-wide concept) connects nothing.
    return rows.filter((r) => !exclude.has(r.id) && r.df > 1 && r.df <= 50).slice(0, limit);
  }
}

function scopeSql(search: GraphSearch): { sql: string; params: unknown[] } {
  const parts = [`m.status IN (SELECT value FROM json_each(?))`];
  const params: unknown[] = [JSON.stringify(search.statuses)];
  if (search.projects !== undefined) {
    parts.push(`m.project IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(search.projects));
  }
  return { sql: parts.join(" AND "), params };
}
