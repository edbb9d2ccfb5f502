import type Database from "better-sqlite3";
import type { LinkedEntity } from "../store.js";

/** Links memories to the entities they name, in the transaction that writes them; searches run on SearchMirror's copy. */
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
}
