import type Database from "better-sqlite3";
import type { LlmSpend, LlmUsageDay } from "../ports/llm-spend.js";
import { type StatementCache, statementCache } from "./statement-cache.js";

/** The spend ledger (the llm_usage table), on the store's connection. */
export class SqliteLlmSpend implements LlmSpend {
  private readonly sql: StatementCache;

  constructor(db: Database.Database) {
    this.sql = statementCache(db);
  }

  day(day: string): LlmUsageDay {
    const row = this.sql("SELECT input_tokens, output_tokens, calls FROM llm_usage WHERE day = ?").get(day) as
      | { input_tokens: number; output_tokens: number; calls: number }
      | undefined;
    return { day, inputTokens: row?.input_tokens ?? 0, outputTokens: row?.output_tokens ?? 0, calls: row?.calls ?? 0 };
  }

  add(day: string, usage: { inputTokens: number; outputTokens: number }): void {
    this
      .sql(
        `INSERT INTO llm_usage (day, input_tokens, output_tokens, calls) VALUES (?, ?, ?, 1)
         ON CONFLICT (day) DO UPDATE SET input_tokens = input_tokens + excluded.input_tokens,
           output_tokens = output_tokens + excluded.output_tokens, calls = calls + 1`,
      )
      .run(day, usage.inputTokens, usage.outputTokens);
  }
}
