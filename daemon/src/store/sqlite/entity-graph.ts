import type Database from "better-sqlite3";
import type { LinkedEntity } from "../store.js";

/** Links memories to the entities they name, in the transaction that writes them; searches run on SearchMirror's copy. */
export class EntityGraph {
  private readonly upsertEntity: Database.Statement;
  private readonly entityId: Database.Statement;
  private readonly unlinkOne: Database.Statement;
  private readonly linked: Database.Statement;
  private readonly link: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.upsertEntity = db.prepare("INSERT INTO entities (key, type) VALUES (?, ?) ON CONFLICT (key) DO NOTHING");
    this.entityId = db.prepare("SELECT id FROM entities WHERE key = ?");
    this.unlinkOne = db.prepare("DELETE FROM memory_entities WHERE entity_id = ? AND memory_seq = ?");
    this.linked = db.prepare("SELECT e.id, e.key FROM memory_entities me JOIN entities e ON e.id = me.entity_id WHERE me.memory_seq = ?");
    this.link = db.prepare("INSERT OR IGNORE INTO memory_entities (entity_id, memory_seq) VALUES (?, ?)");
  }

  /**
   * Replaces a memory's links with these, touching only the links that differ (every write of a
   * memory comes here, and a link that did not change must not look like one to the search
   * indexes); call inside the transaction that writes the memory.
   */
  setLinks(memorySeq: number, entities: readonly LinkedEntity[]): void {
    const current = new Map((this.linked.all(memorySeq) as { id: number; key: string }[]).map((row) => [row.key, row.id]));
    const wanted = new Map(entities.map((entity) => [entity.key, entity]));
    for (const [key, id] of current) if (!wanted.has(key)) this.unlinkOne.run(id, memorySeq);
    for (const entity of wanted.values()) {
      if (current.has(entity.key)) continue;
      this.upsertEntity.run(entity.key, entity.type);
      const row = this.entityId.get(entity.key) as { id: number };
      this.link.run(row.id, memorySeq);
    }
  }

  isEmpty(): boolean {
    return this.db.prepare("SELECT 1 FROM memory_entities LIMIT 1").get() === undefined;
  }
}
