import type { MemoryEvent, MemoryRecord } from "../memory/memory.js";

/**
 * The hub's side of the local database (migration 12): the durable outbox of changes to push,
 * filled by the database itself in the same transaction as each change while a hub is
 * connected, the hub's version of each memory this machine last had, and how far the hub's
 * change stream has been read. Synchronous like every local port: the asynchronous side is the
 * hub itself (hub/hub-port.ts), which only the sync worker waits on.
 */
export interface HubStore {
  /** This database's id on every hub: it tells this machine's versions and events from others'. */
  machineId(): string;
  /** The hub this database syncs with, or null. */
  link(): HubLink | null;
  /**
   * Connects to the hub at `url`, or disconnects (null). A hub other than the one before has
   * every memory and event of this person's queued, the stream read from its start, in one
   * transaction; returns how many memories were queued. Disconnecting empties the outbox:
   * connecting again pushes all.
   */
  configure(url: string | null): number;
  /** Records the hub's identity and epoch where none was known yet (a first contact). */
  adopt(identity: HubIdentity): void;
  /**
   * The hub lost what this machine had pushed (another hub at the URL, or its owner truncated
   * or deleted rows): forgets what the hub held, queues every memory and event of this
   * person's again and reads the stream from its start, in one transaction, recording the
   * hub's new identity and `notice`. Returns how many memories were queued.
   */
  refill(identity: HubIdentity, notice: HubNotice): number;
  /** Queues again these memories and events the hub no longer holds, with `notice`. */
  requeue(memoryIds: readonly string[], eventIds: readonly number[], notice: HubNotice): void;
  /** Records what the sync noticed, for memctl hub status. */
  notify(notice: HubNotice): void;
  /** The last notice, or null. */
  notice(): HubNotice | null;
  /**
   * A page (after `afterId`, in id order) of this person's memories whose push the hub
   * acknowledged, with the hub's seq of the version it acknowledged, not queued again since.
   */
  acknowledgedMemories(afterId: string, limit: number): { id: string; seq: number }[];
  /** A page (after `afterId`) of this machine's own events the hub acknowledged on this person's memories it holds. */
  acknowledgedEvents(afterId: number, limit: number): DueEvent[];
  /** Up to `limit` memories to push, in id order; a memory purged since has no record. */
  duePushes(limit: number): DuePush[];
  /** Up to `limit` of this machine's own events to push, in order. */
  dueEvents(limit: number): DueEvent[];
  /**
   * Settles pushed memories in one transaction: each one's hub version recorded (none for a
   * refused one), its job dropped if its token is unchanged, and a winner from elsewhere stored.
   */
  settlePushes(settled: readonly SettledPush[]): void;
  settleEvents(eventIds: readonly number[]): void;
  /**
   * Stores memories from the hub and moves the cursor past them, in one transaction, queueing
   * nothing to push back; a memory with a local change not pushed yet is left for the push to
   * settle, and one at or behind the version this machine has is skipped. Returns how many were stored.
   */
  applyMemories(pulled: readonly PulledVersion[], cursor: StreamCursor): number;
  /**
   * Records other machines' events (each once, by its owner and key: a key is unique only per
   * hub user) and moves the cursor; returns how many were new.
   */
  applyEvents(pulled: readonly { key: string; owner: string; event: MemoryEvent }[], cursor: StreamCursor): number;
  /** Reads the stream again from its start, the next time (what this person may see grew). */
  restartStream(generation: number): void;
  pending(): { memories: number; events: number };
  /** Whether anything waits to be pushed: cheaper than pending(), for polling. */
  hasPending(): boolean;
}

/** A position in the hub's change stream: the writing transaction's id, then the change's number. */
export interface StreamCursor {
  txid: string;
  seq: number;
}

/** Which hub this is and how often it lost rows (see hub/hub-port.ts HubState). */
export interface HubIdentity {
  hubId: string;
  epoch: number;
}

/** What the sync noticed about the hub and did about it, and when (ms). */
export interface HubNotice {
  text: string;
  at: number;
}

export interface HubLink extends HubIdentity {
  url: string;
  memoryCursor: StreamCursor;
  eventCursor: StreamCursor;
  /** The hub's access generation this machine read the stream under. */
  generation: number;
}

export interface DuePush {
  memoryId: string;
  token: number;
  record: MemoryRecord | undefined;
  /** The hub's seq of the version this machine last had (0 for none). */
  baseSeq: number;
}

export interface DueEvent {
  eventId: number;
  /** machine id:event id, the same on every push of it. */
  key: string;
  event: MemoryEvent;
}

export interface SettledPush {
  memoryId: string;
  token: number;
  /** The hub's seq of the version it now holds; null when the hub refused it. */
  seq: number | null;
  /** Another machine's version that won a conflict, to store here instead. */
  winner?: MemoryRecord;
}

export interface PulledVersion {
  record: MemoryRecord;
  seq: number;
}
