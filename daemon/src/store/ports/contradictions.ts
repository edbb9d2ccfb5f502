/**
 * Pairs of memories that say different things about the same subject, found when one of them was
 * written, and a person's (or an agent's) decision on each: which one holds, or that both do.
 * Nothing here resolves a pair by itself.
 */
export interface Contradictions {
  /**
   * Records a pair found; returns it, or null when the two were recorded before (in either order,
   * open or settled: a pair kept as compatible is not asked about again).
   */
  record(found: NewContradiction): ContradictionRecord | null;
  get(id: number): ContradictionRecord | undefined;
  /**
   * Pairs whose memories both still hold (active or staged), newest first: the open ones, or with
   * `settled` the settled ones too; `projects` limits them to pairs with a memory in one of those.
   */
  list(query: ContradictionQuery): ContradictionRecord[];
  /** How many open pairs of those projects wait for a decision. */
  countOpen(projects?: readonly string[]): number;
  /**
   * Settles a pair. Keeping one supersedes the other (it points at the one kept, and its claim
   * stops holding at `at`), with an event on both; keeping both records only the decision. One
   * transaction. Throws NotFoundError for an unknown id and FailedPreconditionError for a pair
   * already settled or whose memory no longer holds.
   */
  settle(id: number, resolution: ContradictionResolution, at: number, sessionId: string): SettledContradiction;
}

export type ContradictionResolution = "kept_newer" | "kept_older" | "compatible";

/** Where a pair was found: the write that found it, or a newly embedded memory's neighbours (the model that judged it is the record's detector). */
export type ContradictionSource = "save" | "checkpoint" | "import" | "sweep" | "embedding" | "update" | "vault";

export interface ContradictionRecord {
  id: number;
  /** The newer memory of the pair (made later; the id decides a tie): usually the one being written; always the one an update changed. */
  memoryId: string;
  /** The older memory, which the newer one contradicts. */
  otherId: string;
  foundAt: number;
  via: ContradictionSource;
  /** "rules" for the deterministic detector, else the model that judged ("openai:gpt-4o-mini"). */
  detector: string;
  /** How sure the detector was, 0 to 1. */
  score: number;
  /** What the two disagree on ("auth provider", "port"). */
  subject: string;
  /** What each says of it. */
  newerSays: string;
  olderSays: string;
  status: "open" | "settled";
  resolution: ContradictionResolution | "";
  settledAt: number | null;
}

export type NewContradiction = Omit<ContradictionRecord, "id" | "status" | "resolution" | "settledAt">;

export interface ContradictionQuery {
  projects?: readonly string[];
  settled: boolean;
  limit: number;
  /** Continue after this id (newest first, so ids below it). */
  beforeId?: number;
}

/** A settled pair, and the memory each side now is. */
export interface SettledContradiction {
  contradiction: ContradictionRecord;
  /** The memory superseded by the settlement; absent when both were kept. */
  superseded?: string;
}
