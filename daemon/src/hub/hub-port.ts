import type { MemoryEvent, MemoryRecord } from "../memory/memory.js";
import type { StreamCursor } from "../store/hub-store.js";

export type { StreamCursor };

/**
 * The hub as the sync worker sees it: an asynchronous port, since the hub is across a network.
 * The local store stays synchronous (store/store.ts); only this side waits, and only the sync
 * worker calls it, so no request of an agent ever waits for the hub.
 */
export interface HubPort {
  /** Who the hub says this connection is (the login role). */
  readonly user: string;
  /**
   * Stores local changes in one hub transaction, idempotently: a version the hub already holds is
   * "unchanged", so a push retried after a crash changes nothing twice. Events are keyed (their
   * key never changes), so each is recorded once.
   */
  push(batch: PushBatch): Promise<PushResult>;
  /**
   * The next changes after the cursor that this user may see, oldest first, but those `machine`
   * wrote itself: it has them already (a push it could not settle is pushed again, not pulled).
   */
  pullMemories(after: StreamCursor, limit: number, machine: string): Promise<PulledMemory[]>;
  pullEvents(after: StreamCursor, limit: number, machine: string): Promise<PulledEvent[]>;
  /** A number that grows when what this user may see grew beyond changed rows (they joined a team). */
  accessGeneration(): Promise<number>;
  /**
   * Calls `listener` whenever a push committed (LISTEN/NOTIFY), until closed, with the machine
   * that pushed ("" for a change made on the hub itself, such as a new share).
   */
  onChange(listener: (machine: string) => void): void;
  /** Calls `listener` once if the connection is lost. */
  onLost(listener: (error: Error) => void): void;
  teams: TeamAdmin;
  close(): Promise<void>;
}

export const STREAM_START: StreamCursor = { txid: "0", seq: 0 };

export interface PushBatch {
  machine: string;
  memories: PushedMemory[];
  events: PushedEvent[];
  /** When the push is made, for the history entries of conflicts. */
  at: number;
}

export interface PushedMemory {
  record: MemoryRecord;
  /** The hub's seq of the version this machine last had (0 for none): a different seq on the hub means someone else changed it since. */
  baseSeq: number;
}

export interface PushedEvent {
  key: string;
  event: MemoryEvent;
}

export interface PushResult {
  memories: PushOutcome[];
  /** Events of memories the hub holds for this user; the others (a refused memory's) are dropped. */
  eventsStored: number;
  eventsRefused: number;
}

export type PushOutcome =
  /** The hub now holds this machine's version at `seq` (stored, already there, or won a conflict). */
  | { id: string; result: "stored" | "unchanged" | "won"; seq: number }
  /** Someone else's concurrent version won; it is `winner`, at `seq`, and this one is in the history. */
  | { id: string; result: "lost"; seq: number; winner: unknown }
  /** The hub refused it (another person's memory not shared with this user, or one that would leave the share). */
  | { id: string; result: "refused"; reason: string };

/** A memory from the stream, not yet checked (see hub-record.ts). */
export interface PulledMemory {
  id: string;
  record: unknown;
  machine: string;
  cursor: StreamCursor;
}

export interface PulledEvent {
  key: string;
  memoryId: string;
  event: unknown;
  cursor: StreamCursor;
}

/** Teams and shares, as the connected person may manage them (row-level security decides). */
export interface TeamAdmin {
  create(team: string): Promise<void>;
  addMember(team: string, member: string): Promise<void>;
  removeMember(team: string, member: string): Promise<boolean>;
  share(project: string, team: string): Promise<boolean>;
  unshare(project: string, team: string): Promise<boolean>;
  list(): Promise<TeamInfo[]>;
}

export interface TeamInfo {
  name: string;
  owner: string;
  /** Empty unless the person is a member. */
  members: string[];
  /** The projects shared with the team, by owner. */
  shares: { owner: string; project: string }[];
}
