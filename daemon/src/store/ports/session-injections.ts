/**
 * What Brief and Suggest already put into a session's context, so that neither repeats a memory
 * the agent has in front of it until that context is cleared.
 */
export interface SessionInjections {
  /** The memories already put into a session's context. */
  of(sessionId: string): Set<string>;
  /** Records memories put into a session's context at `at`; recording one again refreshes its time. */
  record(sessionId: string, memoryIds: readonly string[], at: number): void;
  /** Forgets what a session was given (its context was cleared); returns how many records went. */
  forget(sessionId: string): number;
  /** Deletes the records of every session not given anything since `before`; returns how many went. */
  prune(before: number): number;
}
