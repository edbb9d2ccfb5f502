import { setImmediate as nextTurn } from "node:timers/promises";
import { WakeableSleep } from "../wakeable-sleep.js";
import type { Logger } from "../logger.js";
import type { MemoryEvent, MemoryRecord } from "../memory/memory.js";
import type { MemoryLimits } from "../memory/validate.js";
import { authorshipOnHub, withoutAuthorship } from "../memory/author.js";
import type { HubNotice, HubStore, SettledPush, StreamCursor } from "../store/hub-store.js";
import type { ChangeFeed } from "../store/store.js";
import type { HubPort, HubState, PushResult } from "./hub-port.js";
import { findLostRows, followHubIdentity } from "./hub-reconcile.js";
import { eventFromHub, memoryFromHub } from "./hub-record.js";
import { redactedUrl, userOf } from "./hub-url.js";
import { backoffMs } from "../backoff.js";

export interface HubSyncOptions {
  store: HubStore;
  /** The hub's URL, password and all; never logged or shown (see redactedUrl). */
  url: string;
  connect: (url: string) => Promise<HubPort>;
  logger: Logger;
  now: () => number;
  limits: MemoryLimits;
  /** Wakes the sync after each commit that queued a change for the hub, whichever write queued it. */
  changes: Pick<ChangeFeed, "onQueued">;
  /** The longest wait between syncs when nothing is notified (a lost NOTIFY costs at most this). */
  idleMs?: number;
  /** Memories or events per push, and per pull. */
  batch?: number;
  /** Pulled memories stored per local transaction: a first sync of 100k never holds a request up for long. */
  applyChunk?: number;
}

export interface HubSyncStatus {
  url: string;
  user: string;
  machineId: string;
  connected: boolean;
  lastError: string;
  lastSyncAt: number | null;
  pendingMemories: number;
  pendingEvents: number;
  pushed: number;
  pulled: number;
  /** Memories whose concurrent versions met on the hub (either side's). */
  conflicts: number;
  /** Local changes the hub refused (another person's memory, or out of a share). */
  refused: number;
  /** This machine's history events the hub refused (their memory is not the hub's for this person, or their key holds another event). */
  refusedEvents: number;
  /** Memories or events from the hub that failed the checks and were not stored. */
  rejected: number;
  /** What the sync last noticed about the hub and did about it (it lost rows, or is another hub), kept across restarts; null for nothing. */
  notice: HubNotice | null;
}

const DEFAULT_IDLE_MS = 5_000;
const DEFAULT_BATCH = 500;
const DEFAULT_APPLY_CHUNK = 100;
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
const STOP_WAIT_MS = 2_000;

/**
 * Keeps the local database and the hub in step, off every request's path: it pushes the outbox
 * (filled by the database in the same transaction as each change), then pulls the hub's changes
 * after the cursor, and waits for the next local change, a NOTIFY from another daemon's push,
 * or the idle timeout. Every step is idempotent, so a failure (or a kill) anywhere only repeats
 * work: a retried push finds its versions already there, a pulled page and its cursor land in
 * one local transaction. With the hub down it backs off (up to 30 s); local work never waits.
 */
export class HubSync {
  private hub: HubPort | null = null;
  private connecting: Promise<HubPort> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly pause = new WakeableSleep();
  private unsubscribe: () => void = () => undefined;
  private failures = 0;
  private readonly counts = { pushed: 0, pulled: 0, conflicts: 0, refused: 0, refusedEvents: 0, rejected: 0 };
  /** The connection whose hub was last checked for rows it lost (see hub-reconcile.ts): each new one is. */
  private checked: HubPort | null = null;
  private lastError = "";
  private lastSyncAt: number | null = null;
  /** Whether the stream may hold something new: another machine notified, the idle wait passed, or a step failed. */
  private pullDue = true;
  private lastPullAt = 0;
  private readonly batch: number;
  /** This database's id on the hub, which never changes. */
  private readonly machine: string;
  private readonly applyChunk: number;

  constructor(private readonly options: HubSyncOptions) {
    this.batch = options.batch ?? DEFAULT_BATCH;
    this.machine = options.store.machineId();
    this.applyChunk = options.applyChunk ?? DEFAULT_APPLY_CHUNK;
  }

  start(): void {
    // While the hub fails, the backoff decides when to try again, not each local change.
    this.unsubscribe = this.options.changes.onQueued("hub", () => {
      if (this.failures === 0) this.wakeUp();
    });
    this.running = this.loop();
  }

  /**
   * Stops after the step under way, so that the database may close after; a step still waiting
   * on an unresponsive hub after STOP_WAIT_MS has its connection closed under it (it then fails,
   * and what it did not settle is pushed or pulled again at the next start).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    this.wakeUp();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timer);
    await this.drop();
  }

  status(): HubSyncStatus {
    const pending = this.options.store.pending();
    return {
      url: redactedUrl(this.options.url),
      user: this.hub?.user ?? userOf(this.options.url),
      machineId: this.machine,
      connected: this.hub !== null,
      lastError: this.lastError,
      lastSyncAt: this.lastSyncAt,
      pendingMemories: pending.memories,
      pendingEvents: pending.events,
      ...this.counts,
      notice: this.options.store.notice(),
    };
  }

  /** Syncs again now (after a share changed what the team sees, say). */
  wakeUp(): void {
    this.pause.wake();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        const hub = await this.connected();
        if (this.checked !== hub) {
          await this.reconcile(hub);
          this.checked = hub;
        }
        await this.push(hub);
        if (this.pullDue || this.options.now() - this.lastPullAt >= (this.options.idleMs ?? DEFAULT_IDLE_MS)) {
          this.pullDue = false;
          await this.pull(hub);
          this.lastPullAt = this.options.now();
        }
        this.failures = 0;
        this.lastError = "";
        this.lastSyncAt = this.options.now();
      } catch (error) {
        if (this.stopped) break;
        this.pullDue = true;
        this.failures += 1;
        this.lastError = describe(error);
        this.options.logger.warn({ err: error, failures: this.failures }, "hub sync failed; local work goes on and it is tried again");
        await this.drop();
      }
      if (this.stopped) break;
      const backoff = this.failures === 0 ? this.options.idleMs ?? DEFAULT_IDLE_MS : backoffMs(this.failures, FIRST_BACKOFF_MS, MAX_BACKOFF_MS);
      await this.pause.sleep(backoff);
    }
  }

  /**
   * The connected hub, for the worker and for a person's request (teams, shares): connects now if the worker is
   * between attempts; fails as connecting does (UnavailableError when the hub is unreachable).
   */
  async connected(): Promise<HubPort> {
    if (this.hub) return this.hub;
    this.connecting ??= this.options.connect(this.options.url).finally(() => (this.connecting = null));
    const hub = await this.connecting;
    if (this.hub !== hub) {
      this.hub = hub;
      // This machine's own pushes need no pull: it has what it pushed.
      hub.onChange((machine) => {
        if (machine === this.machine) return;
        this.pullDue = true;
        this.wakeUp();
      });
      hub.onLost((error) => {
        if (this.hub !== hub) return;
        this.options.logger.warn({ err: error }, "lost the connection to the hub; reconnecting");
        void this.drop();
        this.wakeUp();
      });
      this.options.logger.info({ hub: redactedUrl(this.options.url), user: hub.user }, "connected to the hub");
    }
    return hub;
  }

  /** On a new connection: is it the hub this machine knew, and does it still hold all it acknowledged? */
  private async reconcile(hub: HubPort): Promise<void> {
    if (this.followIdentity(await hub.state())) return;
    const notice = await findLostRows(hub, this.options.store, this.options.now());
    if (notice) this.options.logger.warn({ notice: notice.text }, "the hub lost what it had acknowledged; it is pushed again");
  }

  /** True when the hub is another one, or lost rows, since this machine last looked: everything is queued again. */
  private followIdentity(state: HubState): boolean {
    const notice = followHubIdentity(this.options.store, state, this.options.now());
    if (!notice) return false;
    this.options.logger.warn({ notice: notice.text }, "the hub lost what it had acknowledged; it is pushed again");
    return true;
  }

  private async drop(): Promise<void> {
    const hub = this.hub;
    this.hub = null;
    await hub?.close().catch(() => undefined);
  }

  /**
   * Pushes the outbox, memories before events (an event's memory must be on the hub first): the
   * events go with the last batch of memories, in one hub transaction, or after them.
   */
  private async push(hub: HubPort): Promise<void> {
    const { store } = this.options;
    const { machine } = this;
    for (;;) {
      const due = store.duePushes(this.batch);
      const events = due.length < this.batch ? store.dueEvents(this.batch) : [];
      if (due.length === 0 && events.length === 0) break;
      const present = due.filter((d): d is typeof d & { record: MemoryRecord } => d.record !== undefined);
      const result = await hub.push({
        machine,
        at: this.options.now(),
        memories: present.map((d) => ({ record: withoutAuthorship(d.record), own: d.record.author === "", baseSeq: d.baseSeq })),
        events: events.map((d) => ({ key: d.key, event: d.event })),
      });
      const outcomes = new Map(result.memories.map((o) => [o.id, o]));
      const settled: SettledPush[] = due.map((d) => {
        const outcome = outcomes.get(d.memoryId);
        // Purged here since it was queued: there is nothing to push, and the hub keeps its copy.
        if (!outcome) return { memoryId: d.memoryId, token: d.token, seq: null };
        if (outcome.result === "refused") {
          this.counts.refused += 1;
          this.options.logger.warn({ memoryId: d.memoryId, reason: outcome.reason }, "the hub refused a local change; it stays on this machine only");
          return { memoryId: d.memoryId, token: d.token, seq: null };
        }
        if (outcome.result === "won" || outcome.result === "lost") this.counts.conflicts += 1;
        if (outcome.result !== "lost") return { memoryId: d.memoryId, token: d.token, seq: outcome.seq };
        const authorship = authorshipOnHub(outcome.winnerBy, hub.user);
        return { memoryId: d.memoryId, token: d.token, seq: outcome.seq, winner: this.valid(() => memoryFromHub(outcome.winner, this.options.limits, authorship)) };
      });
      store.settlePushes(settled);
      store.settleEvents(events.map((d) => d.eventId));
      this.reportRefusedEvents(result);
      this.counts.pushed += present.length;
      await nextTurn();
    }
  }

  /**
   * Events the hub refused are settled (pushing them again would be refused again) but never
   * silently: each is counted, logged with why, and the last is kept as the notice.
   */
  private reportRefusedEvents(result: PushResult): void {
    if (result.eventsRefused.length === 0) return;
    this.counts.refusedEvents += result.eventsRefused.length;
    this.options.logger.warn({ refused: result.eventsRefused.slice(0, 20) }, "the hub refused history events of this machine; they stay on this machine only");
    const first = result.eventsRefused[0] as { key: string; reason: string };
    this.options.store.notify({ text: `the hub refused ${result.eventsRefused.length} history events of this machine (event ${first.key}: ${first.reason}); they stay on this machine only`, at: this.options.now() });
  }

  /** Pulls memories, then events, until the stream is read to its end. */
  private async pull(hub: HubPort): Promise<void> {
    const { store } = this.options;
    const { machine } = this;
    const state = await hub.state();
    if (this.followIdentity(state)) {
      // Everything is queued again: push it before reading the stream from its start.
      this.pullDue = true;
      this.wakeUp();
      return;
    }
    const { generation } = state;
    if (generation !== store.link()?.generation) store.restartStream(generation);
    for (;;) {
      const link = store.link();
      if (!link) return;
      const page = await hub.pullMemories(link.memoryCursor, this.batch, machine);
      for (let i = 0; i < page.length; i += this.applyChunk) {
        const chunk = page.slice(i, i + this.applyChunk);
        const versions = chunk.flatMap((row) => {
          const record = this.valid(() => memoryFromHub(row.record, this.options.limits, authorshipOnHub(row, hub.user)));
          return record && record.id === row.id ? [{ record, seq: row.cursor.seq }] : [];
        });
        store.applyMemories(versions, (chunk.at(-1) as { cursor: StreamCursor }).cursor);
        await nextTurn();
      }
      this.counts.pulled += page.length;
      if (page.length < this.batch) break;
    }
    for (;;) {
      const link = store.link();
      if (!link) return;
      const page = await hub.pullEvents(link.eventCursor, this.batch, machine);
      if (page.length === 0) break;
      const events = page.flatMap((row) => {
        const event = this.valid(() => eventFromHub(row.event, row.memoryId));
        return event ? [{ key: row.key, owner: row.owner, event }] : [];
      });
      store.applyEvents(events, (page.at(-1) as { cursor: StreamCursor }).cursor);
      if (page.length < this.batch) break;
      await nextTurn();
    }
  }

  /** A value from the hub that fails its checks is skipped and reported, never stored. */
  private valid<T extends MemoryRecord | MemoryEvent>(check: () => T): T | undefined {
    try {
      return check();
    } catch (error) {
      this.counts.rejected += 1;
      this.options.logger.warn({ err: error }, "skipped a change from the hub that memd cannot store");
      return undefined;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
