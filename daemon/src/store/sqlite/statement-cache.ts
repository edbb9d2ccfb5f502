import type Database from "better-sqlite3";

/** Statements kept per cache: filters build a bounded set of texts, so the cap only guards against a surprise. */
const MAX_CACHED_STATEMENTS = 256;

/** The statement for an SQL text, prepared on first use. */
export type StatementCache = (text: string) => Database.Statement;

/**
 * A function that prepares each SQL text once on this connection and hands back the same
 * statement after: preparing costs more than running most of the store's queries.
 */
export function statementCache(db: Database.Database): StatementCache {
  const statements = new Map<string, Database.Statement>();
  return (text) => {
    let statement = statements.get(text);
    if (!statement) {
      if (statements.size >= MAX_CACHED_STATEMENTS) statements.clear();
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
}
