import type {
  InjectionDayTotals, InjectionRecord, InjectionSessionSummary, InjectionTally, NewInjection,
} from "../../injections/injection.js";

/** Which records to read, newest first. */
export interface InjectionQuery {
  sessionId?: string;
  agent?: string;
  /** At or after, ms. */
  since?: number;
  /** Before, ms. */
  until?: number;
  /** Leave out records that added nothing. */
  onlyInjected: boolean;
  /** Only records with a smaller id (the previous page's last). */
  beforeId?: number;
  limit: number;
}

/**
 * The injection record: what memd put into agents' contexts (briefings, pointers, recalls) and
 * the prompts it answered with nothing, kept for a bounded time and number of rows. It sits
 * beside SessionInjections, which answers a different question ("what does this session have in
 * front of it now?", forgotten when the context is cleared) and must not lose its rows to this
 * record's retention.
 */
export interface InjectionLog {
  /** Stores records in one transaction that does not wait for the disk: a power cut may lose the last few, never a crash. */
  add(records: readonly NewInjection[]): void;
  list(query: InjectionQuery): InjectionRecord[];
  /** Sessions by their last record, newest first. */
  sessions(query: { agent?: string; since?: number; limit: number }): InjectionSessionSummary[];
  /** Totals per UTC day and agent from `since` on, newest day first. */
  totals(query: { since: number; agent?: string; sessionId?: string }): InjectionDayTotals[];
  /** For each of `memoryIds` injected at or before `until`, how often and where last. */
  tallies(memoryIds: readonly string[], until: number): Map<string, InjectionTally>;
  /** Deletes records older than `before`, then the oldest beyond `maxRows`; returns how many went. */
  prune(before: number, maxRows: number): number;
}
