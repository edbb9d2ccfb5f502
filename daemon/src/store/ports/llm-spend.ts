/** The tokens the optional language model spent per UTC day, kept durably so that a restart does not reset the daily cap. */
export interface LlmSpend {
  /** The tokens spent on a UTC day ("2026-10-14"); zeros for a day with none. */
  day(day: string): LlmUsageDay;
  /** Adds one call's tokens to a UTC day's total, durably. */
  add(day: string, usage: { inputTokens: number; outputTokens: number }): void;
}

/** What the optional language model cost on one UTC day, across every use (the spend ledger). */
export interface LlmUsageDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  inputTokens: number;
  outputTokens: number;
  calls: number;
}
