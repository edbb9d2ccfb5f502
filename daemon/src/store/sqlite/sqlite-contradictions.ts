import type Database from "better-sqlite3";
import { FailedPreconditionError, NotFoundError } from "../../errors.js";
import { supersededBy, supersedesLoser } from "../../memory/corrections.js";
import type {
  ContradictionQuery, ContradictionRecord, ContradictionResolution, Contradictions, NewContradiction, SettledContradiction,
} from "../ports/contradictions.js";
import type { MemoryRecords } from "../ports/memory-records.js";
import { type StatementCache, statementCache } from "./statement-cache.js";

interface ContradictionRow {
  id: number;
  memory_id: string;
  other_id: string;
  found_at: number;
  via: ContradictionRecord["via"];
  detector: string;
  score: number;
  subject: string;
  newer_says: string;
  older_says: string;
  status: ContradictionRecord["status"];
  resolution: ContradictionRecord["resolution"];
  settled_at: number | null;
}

/** Both memories of a pair still hold: only then is an open pair a question to ask. */
const BOTH_LIVE = "m.status IN ('active', 'staged') AND o.status IN ('active', 'staged')";

/** The contradictions table, on the store's connection; settling changes memories through the records port, in one transaction. */
export class SqliteContradictions implements Contradictions {
  private readonly sql: StatementCache;

  constructor(
    private readonly db: Database.Database,
    private readonly records: MemoryRecords,
  ) {
    this.sql = statementCache(db);
  }

  record(found: NewContradiction): ContradictionRecord | null {
    const row = this
      .sql(
        `INSERT OR IGNORE INTO contradictions (memory_id, other_id, found_at, via, detector, score, subject, newer_says, older_says)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(found.memoryId, found.otherId, found.foundAt, found.via, found.detector, found.score, found.subject, found.newerSays, found.olderSays) as
      | ContradictionRow
      | undefined;
    return row ? fromRow(row) : null;
  }

  get(id: number): ContradictionRecord | undefined {
    const row = this.sql("SELECT * FROM contradictions WHERE id = ?").get(id) as ContradictionRow | undefined;
    return row ? fromRow(row) : undefined;
  }

  list(query: ContradictionQuery): ContradictionRecord[] {
    const { where, params } = scope(query.projects, query.settled);
    const before = query.beforeId === undefined ? "" : "AND c.id < ?";
    const rows = this
      .sql(
        `SELECT c.* FROM contradictions c JOIN memories m ON m.id = c.memory_id JOIN memories o ON o.id = c.other_id
         WHERE ${where} ${before} ORDER BY c.id DESC LIMIT ?`,
      )
      .all(...params, ...(query.beforeId === undefined ? [] : [query.beforeId]), query.limit) as ContradictionRow[];
    return rows.map(fromRow);
  }

  countOpen(projects?: readonly string[]): number {
    const { where, params } = scope(projects, false);
    return this
      .sql(`SELECT COUNT(*) FROM contradictions c JOIN memories m ON m.id = c.memory_id JOIN memories o ON o.id = c.other_id WHERE ${where}`)
      .pluck()
      .get(...params) as number;
  }

  settle(id: number, resolution: ContradictionResolution, at: number, sessionId: string): SettledContradiction {
    return this.db.transaction((): SettledContradiction => {
      const current = this.get(id);
      if (!current) throw new NotFoundError(`no contradiction has id ${id}`);
      if (current.status === "settled") {
        throw new FailedPreconditionError(`contradiction ${id} was already settled (${current.resolution.replace("_", " ")})`);
      }
      let superseded: string | undefined;
      if (resolution !== "compatible") {
        const [winner, loser] = resolution === "kept_newer" ? [current.memoryId, current.otherId] : [current.otherId, current.memoryId];
        // The winner first: if it no longer holds, nothing changes.
        this.records.modify(winner, (m) => supersedesLoser(m, loser, at));
        this.records.modify(loser, (m) => supersededBy(m, winner, at), () => ({
          at,
          action: "superseded",
          sessionId,
          detail: `contradiction ${id} settled: ${winner} holds (${current.subject})`,
        }));
        superseded = loser;
      }
      this.sql("UPDATE contradictions SET status = 'settled', resolution = ?, settled_at = ? WHERE id = ?").run(resolution, at, id);
      return { contradiction: this.get(id) as ContradictionRecord, superseded };
    }).immediate();
  }
}

function scope(projects: readonly string[] | undefined, settled: boolean): { where: string; params: unknown[] } {
  const parts = [settled ? `(c.status = 'settled' OR ${BOTH_LIVE})` : `c.status = 'open' AND ${BOTH_LIVE}`];
  const params: unknown[] = [];
  if (projects !== undefined) {
    parts.push("(m.project IN (SELECT value FROM json_each(?)) OR o.project IN (SELECT value FROM json_each(?)))");
    params.push(JSON.stringify(projects), JSON.stringify(projects));
  }
  return { where: parts.join(" AND "), params };
}

function fromRow(row: ContradictionRow): ContradictionRecord {
  return {
    id: row.id,
    memoryId: row.memory_id,
    otherId: row.other_id,
    foundAt: row.found_at,
    via: row.via,
    detector: row.detector,
    score: row.score,
    subject: row.subject,
    newerSays: row.newer_says,
    olderSays: row.older_says,
    status: row.status,
    resolution: row.resolution,
    settledAt: row.settled_at,
  };
}
