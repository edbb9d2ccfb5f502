import type { HubRecord } from "../memory/author.js";
import type { MemoryEvent } from "../memory/memory.js";
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
  /** Which hub this is, how often it lost rows, and what this user may see (read together, once per pull). */
  state(): Promise<HubState>;
  /**
   * Of this person's memories as this machine had them acknowledged (id and the hub's seq), those
   * the hub no longer holds at that seq or later: rows it lost (a restore from an older backup, a
   * crash of a hub that acknowledged before writing to disk). Seqs only grow, so a later one is fine.
   */
  missingMemories(acknowledged: readonly { id: string; seq: number }[]): Promise<string[]>;
  /** Of this person's event keys this machine had acknowledged, those the hub no longer holds. */
  missingEvents(keys: readonly string[]): Promise<string[]>;
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

export interface HubState {
  /** The hub's id, made once with its schema: another id at the same URL is another hub. */
  hubId: string;
  /** Grows each time the hub's owner deleted or truncated memories or events. */
  epoch: number;
  /** A number that grows when what this user may see grew beyond changed rows (they joined a team). */
  generation: number;
}

export interface PushBatch {
  machine: string;
  memories: PushedMemory[];
  events: PushedEvent[];
  /** When the push is made, for the history entries of conflicts. */
  at: number;
}

export interface PushedMemory {
  /** The memory as the hub keeps it: without who wrote it, which only the hub itself records. */
  record: HubRecord;
  /**
   * This person's own memory (not one shared with them by someone else): only their own may be
   * written as a new row, which the hub records as theirs.
   */
  own: boolean;
  /** The hub's seq of the version this machine last had (0 for none): a different seq on the hub means someone else changed it since. */
  baseSeq: number;
}

export interface PushedEvent {
  key: string;
  event: MemoryEvent;
}

export interface PushResult {
  memories: PushOutcome[];
  /** Events the hub holds for this user now (stored, or stored before by this same push). */
  eventsStored: number;
  /** Events the hub refused, each with why: a memory it does not hold for this user, a value its checks refuse, or a key of this person's that holds a different event. */
  eventsRefused: { key: string; reason: string }[];
}

export type PushOutcome =
  /** The hub now holds this machine's version at `seq` (stored, already there, or won a conflict). */
  | { id: string; result: "stored" | "unchanged" | "won"; seq: number }
  /** Someone else's concurrent version won; it is `winner` (written as `winnerBy` says), at `seq`, and this one is in the history. */
  | { id: string; result: "lost"; seq: number; winner: unknown; winnerBy: RowAuthors }
  /** The hub refused it (another person's memory not shared with this user, or one that would leave the share). */
  | { id: string; result: "refused"; reason: string };

/** Who wrote a row, as the hub recorded it in its own columns (never as the record claims). */
export interface RowAuthors {
  /** The hub user whose memory it is. */
  owner: string;
  /** The hub user who wrote this version. */
  writtenBy: string;
  /** A team of this user's the memory is shared with ("" for none, such as their own unshared memory). */
  team: string;
}

/** A memory from the stream, not yet checked (see hub-record.ts). */
export interface PulledMemory extends RowAuthors {
  id: string;
  record: unknown;
  machine: string;
  cursor: StreamCursor;
}

export interface PulledEvent {
  key: string;
  /** The hub user who recorded it: a key is unique only per owner. */
  owner: string;
  memoryId: string;
  event: unknown;
  cursor: StreamCursor;
}

/** Teams and shares, as the connected person may manage them (row-level security decides). */
export interface TeamAdmin {
  create(team: string): Promise<void>;
  /** Invites a hub user into a team this person owns; returns false when they are a member already. */
  invite(team: string, member: string): Promise<boolean>;
  /** Accepts this person's invitation into a team: only they can make themselves a member. */
  join(team: string): Promise<void>;
  /** Declines this person's invitation; returns false when there was none. */
  decline(team: string): Promise<boolean>;
  /** The invitations waiting for this person. */
  invitations(): Promise<TeamInvitation[]>;
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
  /** Those invited who have not joined yet; empty unless the person is a member. */
  invited: string[];
  /** The projects shared with the team, by owner. */
  shares: { owner: string; project: string }[];
}

export interface TeamInvitation {
  team: string;
  /** Who invited this person: the team's owner. */
  invitedBy: string;
  /** When, in ms since the epoch. */
  at: number;
}

/** A hub's schema versions before and after `memctl hub init`, and whether hub users are kept from PostgreSQL's per-table statistics. */
export interface HubSchemaChange {
  from: number;
  to: number;
  statisticsHidden: boolean;
}
