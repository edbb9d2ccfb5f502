import type Database from "better-sqlite3";
import type { SkillDecision, SkillDecisions } from "../ports/skill-decisions.js";
import { type StatementCache, statementCache } from "./statement-cache.js";

/** Decisions on skill proposals (the skill_decisions table), on the store's connection. */
export class SqliteSkillDecisions implements SkillDecisions {
  private readonly sql: StatementCache;

  constructor(db: Database.Database) {
    this.sql = statementCache(db);
  }

  of(memoryIds: readonly string[]): SkillDecision[] {
    const rows = this
      .sql("SELECT memory_id, decision, skill_path, at FROM skill_decisions WHERE memory_id IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify(memoryIds)) as { memory_id: string; decision: SkillDecision["decision"]; skill_path: string; at: number }[];
    return rows.map((r) => ({ memoryId: r.memory_id, decision: r.decision, skillPath: r.skill_path, at: r.at }));
  }

  record(decision: SkillDecision): void {
    this
      .sql("INSERT OR REPLACE INTO skill_decisions (memory_id, decision, skill_path, at) VALUES (?, ?, ?, ?)")
      .run(decision.memoryId, decision.decision, decision.skillPath, decision.at);
  }
}
