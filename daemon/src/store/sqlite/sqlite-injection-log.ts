import type Database from "better-sqlite3";
import type {
  InjectedMemory, InjectionDayTotals, InjectionKind, InjectionRecord, InjectionSessionSummary, InjectionTally, NewInjection,
} from "../../injections/injection.js";
import type { MemoryKind } from "../../memory/memory.js";
import type { InjectionLog, InjectionQuery } from "../ports/injection-log.js";
import { type StatementCache, statementCache } from "./statement-cache.js";
import { commitUnflushed } from "./unflushed-commit.js";

interface InjectionRow {
  id: number;
  at: number;
  session_id: string;
  agent: string;
  via: string;
  kind: string;
  project: string;
  prompt: string;
  text: string;
  tokens: number;
}

interface InjectedRow {
  injection_id: number;
  memory_id: string;
  kind: string;
  line: string;
  score: number;
  why: string;
}

/** The filters a query names, as SQL conditions over `injections` and their parameters. */
function conditions(query: { sessionId?: string; agent?: string; since?: number; until?: number; onlyInjected?: boolean; beforeId?: number }) {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const add = (condition: string, name: string, value: unknown) => {
    if (value === undefined) return;
    where.push(condition);
    params[name] = value;
  };
  add("session_id = @sessionId", "sessionId", query.sessionId);
  add("agent = @agent", "agent", query.agent);
  add("at >= @since", "since", query.since);
  add("at < @until", "until", query.until);
  add("id < @beforeId", "beforeId", query.beforeId);
  if (query.onlyInjected) where.push("tokens > 0");
  return { sql: where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`, params };
}

/** The injection record (the injections and injected_memories tables), on the store's connection. */
export class SqliteInjectionLog implements InjectionLog {
  private readonly sql: StatementCache;

  constructor(private readonly db: Database.Database) {
    this.sql = statementCache(db);
  }

  add(records: readonly NewInjection[]): void {
    if (records.length === 0) return;
    const insert = this.sql(
      `INSERT INTO injections (at, session_id, agent, via, kind, project, prompt, text, tokens, memory_count)
       VALUES (@at, @sessionId, @agent, @via, @kind, @project, @prompt, @text, @tokens, @memoryCount)`,
    );
    const insertMemory = this.sql(
      `INSERT INTO injected_memories (injection_id, position, memory_id, kind, line, score, why)
       VALUES (@injectionId, @position, @memoryId, @kind, @line, @score, @why)`,
    );
    // Bookkeeping nobody waits for: a power cut may lose the last records, a crash cannot (WAL).
    commitUnflushed(this.db, () => {
      for (const record of records) {
        const { memories, ...fields } = record;
        const { lastInsertRowid } = insert.run({ ...fields, memoryCount: memories.length });
        memories.forEach((memory, position) => insertMemory.run({ ...memory, injectionId: lastInsertRowid, position }));
      }
    });
  }

  list(query: InjectionQuery): InjectionRecord[] {
    const where = conditions(query);
    const rows = this
      .sql(`SELECT id, at, session_id, agent, via, kind, project, prompt, text, tokens FROM injections ${where.sql} ORDER BY id DESC LIMIT @limit`)
      .all({ ...where.params, limit: query.limit }) as InjectionRow[];
    if (rows.length === 0) return [];
    const carried = this
      .sql(
        `SELECT injection_id, memory_id, kind, line, score, why FROM injected_memories
         WHERE injection_id IN (SELECT value FROM json_each(?)) ORDER BY injection_id, position`,
      )
      .all(JSON.stringify(rows.map((r) => r.id))) as InjectedRow[];
    const byInjection = new Map<number, InjectedMemory[]>();
    for (const m of carried) {
      const list = byInjection.get(m.injection_id) ?? [];
      list.push({ memoryId: m.memory_id, kind: m.kind as MemoryKind, line: m.line, score: m.score, why: m.why });
      byInjection.set(m.injection_id, list);
    }
    return rows.map((r) => ({
      id: r.id,
      at: r.at,
      sessionId: r.session_id,
      agent: r.agent,
      via: r.via,
      kind: r.kind as InjectionKind,
      project: r.project,
      prompt: r.prompt,
      text: r.text,
      tokens: r.tokens,
      memories: byInjection.get(r.id) ?? [],
    }));
  }

  sessions(query: { agent?: string; since?: number; limit: number }): InjectionSessionSummary[] {
    const where = conditions(query);
    // The agent and project are those of each session's last record.
    const rows = this
      .sql(
        `SELECT s.session_id, last.agent, last.project, s.first_at, s.last_at, s.injections, s.tokens, s.prompts, s.empty_prompts
         FROM (
           SELECT session_id, max(id) AS last_id, min(at) AS first_at, max(at) AS last_at,
             sum(tokens > 0) AS injections, sum(tokens) AS tokens,
             sum(kind = 'pointers') AS prompts, sum(kind = 'pointers' AND memory_count = 0) AS empty_prompts
           FROM injections ${where.sql} GROUP BY session_id
         ) AS s JOIN injections AS last ON last.id = s.last_id
         ORDER BY s.last_id DESC LIMIT @limit`,
      )
      .all({ ...where.params, limit: query.limit }) as {
      session_id: string; agent: string; project: string; first_at: number; last_at: number; injections: number; tokens: number; prompts: number; empty_prompts: number;
    }[];
    return rows.map((r) => ({
      sessionId: r.session_id,
      agent: r.agent,
      project: r.project,
      firstAt: r.first_at,
      lastAt: r.last_at,
      injections: r.injections,
      tokens: r.tokens,
      prompts: r.prompts,
      emptyPrompts: r.empty_prompts,
    }));
  }

  totals(query: { since: number; agent?: string; sessionId?: string }): InjectionDayTotals[] {
    const where = conditions(query);
    const rows = this
      .sql(
        `SELECT strftime('%Y-%m-%d', at / 1000, 'unixepoch') AS day, agent,
           sum(tokens > 0) AS injections, sum(tokens) AS tokens, sum(kind = 'briefing') AS briefings,
           sum(kind = 'pointers') AS prompts, sum(kind = 'pointers' AND memory_count = 0) AS empty_prompts, sum(kind = 'recall') AS recalls
         FROM injections ${where.sql} GROUP BY day, agent ORDER BY day DESC, agent`,
      )
      .all(where.params) as { day: string; agent: string; injections: number; tokens: number; briefings: number; prompts: number; empty_prompts: number; recalls: number }[];
    return rows.map((r) => ({
      day: r.day,
      agent: r.agent,
      injections: r.injections,
      tokens: r.tokens,
      briefings: r.briefings,
      prompts: r.prompts,
      emptyPrompts: r.empty_prompts,
      recalls: r.recalls,
    }));
  }

  tallies(memoryIds: readonly string[], until: number): Map<string, InjectionTally> {
    if (memoryIds.length === 0) return new Map();
    // With max() as the only aggregate, SQLite takes the bare columns from the row that has the maximum.
    const rows = this
      .sql(
        `SELECT m.memory_id, count(*) AS count, max(i.id) AS last_id, i.at, i.session_id, i.agent
         FROM injected_memories AS m JOIN injections AS i ON i.id = m.injection_id
         WHERE m.memory_id IN (SELECT value FROM json_each(@ids)) AND i.at <= @until
         GROUP BY m.memory_id`,
      )
      .all({ ids: JSON.stringify(memoryIds), until }) as { memory_id: string; count: number; at: number; session_id: string; agent: string }[];
    return new Map(
      rows.map((r) => [r.memory_id, { memoryId: r.memory_id, count: r.count, lastAt: r.at, lastSessionId: r.session_id, lastAgent: r.agent }]),
    );
  }

  prune(before: number, maxRows: number): number {
    return this.db.transaction(() => {
      // The memories they carried go with them (ON DELETE CASCADE).
      const old = this.sql("DELETE FROM injections WHERE at < ?").run(before).changes;
      const over = this.sql("DELETE FROM injections WHERE id <= (SELECT id FROM injections ORDER BY id DESC LIMIT 1 OFFSET ?)").run(maxRows).changes;
      return old + over;
    })();
  }
}
