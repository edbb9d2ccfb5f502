import cron from "node-cron";
import type { EmbeddingRuntime } from "../embed/embedding-runtime.js";
import { clusterAgingMemories, DEFAULT_CLUSTER_CONFIG } from "../lifecycle/cluster-aging.js";
import { decayWeight } from "../lifecycle/decay.js";
import { DAY_MS } from "../lifecycle/half-lives.js";
import { DEFAULT_GC_CONFIG, planGc } from "../lifecycle/gc-plan.js";
import type { HalfLives } from "../lifecycle/half-lives.js";
import { mergeCluster } from "../lifecycle/merge-cluster.js";
import { type ClusterSummariser, withSummary } from "../llm/cluster-summary.js";
import { UnavailableError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { MemoryRecord } from "../memory/memory.js";
import type { InjectionRetention } from "../config/config.js";
import { savedMemories } from "../changes/saved-memories.js";
import type { ChangeFeed, InjectionLog, MemoryRecords } from "../store/store.js";
import { archiveMemory } from "../commands/archive-memory.js";
import { consolidateCluster } from "../commands/consolidate-cluster.js";

export interface ArchivedAction {
  memoryId: string;
  reason: string;
  relatedId: string;
}

export interface ConsolidationAction {
  memory: MemoryRecord;
  originalIds: string[];
}

/** One finished maintenance run, for Stats. */
export interface MaintenanceRunRecord {
  endedAt: number;
  trigger: "schedule" | "saves" | "clean" | "consolidate";
  consolidated: number;
  archived: number;
  /** Why it failed; empty when it did not. */
  error: string;
}

export interface MaintenanceOptions {
  store: MemoryRecords;
  /** The store's change feed: maintenance counts the memories saved, whichever write saved them. */
  changes: Pick<ChangeFeed, "subscribe">;
  embeddings: EmbeddingRuntime | null;
  logger: Logger;
  now: () => number;
  newId: () => string;
  /** Cron expression for the daily run. */
  schedule?: string;
  /** Run after this many saves as well. */
  everySaves?: number;
  halfLives: HalfLives;
  /**
   * Summarises clusters with a language model when one is configured (MEMD_LLM); without one, or
   * when it fails, a cluster gets the deterministic merge. Dry runs never call it.
   */
  summariser?: ClusterSummariser | null;
  /** The injection record, pruned to its retention at start and on every run. */
  injections?: { log: Pick<InjectionLog, "prune">; retention: InjectionRetention };
}

/**
 * Near-duplicate detection compares every pair within a project and kind; beyond this many
 * memories in one group it is skipped (decay and expiry still apply) to keep the run bounded.
 */
const MAX_PAIRWISE_GROUP = 500;
/**
 * A run reads every current memory and blocks the event loop while it plans, so save-triggered
 * runs are spaced out; the daily run and on-demand runs are not limited.
 */
const SAVE_RUN_INTERVAL_MS = 15 * 60_000;

/**
 * Runs GC (archive what decayed, expired, went stale or repeats another) and consolidation (merge
 * aging similar memories) daily and every `everySaves` saves, never two at once. Nothing is deleted.
 */
export class Maintenance {
  private running: Promise<unknown> = Promise.resolve();
  private savesSinceRun = 0;
  private queued = false;
  private stopped = false;
  private lastSaveTriggeredAt = Number.NEGATIVE_INFINITY;
  private task: ReturnType<typeof cron.schedule> | null = null;
  private last: MaintenanceRunRecord | null = null;
  /** Consolidated memories this instance wrote: its own merges are not saves. */
  private readonly ownMerges = new Set<string>();
  private unsubscribe: () => void = () => undefined;

  constructor(private readonly options: MaintenanceOptions) {}

  /** The last run that changed or could have changed something (dry runs do not count), since memd started. */
  lastRun(): MaintenanceRunRecord | null {
    return this.last;
  }

  start(): void {
    this.unsubscribe = this.options.changes.subscribe((changes) => {
      for (const id of savedMemories(changes)) if (!this.ownMerges.delete(id)) this.noteSave();
    });
    this.task = cron.schedule(this.options.schedule ?? "17 3 * * *", () => void this.runAll("schedule"), { noOverlap: true });
    // A machine asleep at the scheduled hour, with few saves, would otherwise keep growing the record.
    this.pruneInjections();
  }

  /** Counts a save; every `everySaves` saves a run starts, at most every 15 minutes, unless one already waits. */
  private noteSave(): void {
    this.savesSinceRun += 1;
    const at = this.options.now();
    if (this.savesSinceRun < (this.options.everySaves ?? 10) || this.queued || at - this.lastSaveTriggeredAt < SAVE_RUN_INTERVAL_MS) return;
    this.savesSinceRun = 0;
    this.lastSaveTriggeredAt = at;
    void this.runAll("saves");
  }

  /** Archives what the lifecycle says should go (a person asked, through Clean). */
  async clean(dryRun: boolean): Promise<ArchivedAction[]> {
    const archived = await this.exclusive(() => this.cleanNow(dryRun));
    if (!dryRun) this.record("clean", 0, archived.length, "");
    return archived;
  }

  /** Merges aging clusters (a person asked, through Consolidate). */
  async consolidate(dryRun: boolean): Promise<ConsolidationAction[]> {
    const merged = await this.exclusive(() => this.consolidateNow(dryRun));
    if (!dryRun) this.record("consolidate", merged.length, 0, "");
    return merged;
  }

  private record(trigger: MaintenanceRunRecord["trigger"], consolidated: number, archived: number, error: string): void {
    this.last = { endedAt: this.options.now(), trigger, consolidated, archived, error };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    await this.task?.stop();
    // A run may chain another (consolidate, then clean) while we wait: wait until none is left.
    for (let seen: Promise<unknown> | null = null; seen !== this.running; ) {
      seen = this.running;
      await seen.catch(() => undefined);
    }
  }

  private async runAll(trigger: "schedule" | "saves"): Promise<void> {
    if (this.queued || this.stopped) return;
    this.queued = true;
    try {
      const consolidated = await this.exclusive(() => this.consolidateNow(false));
      if (this.stopped) return;
      const archived = await this.exclusive(() => this.cleanNow(false));
      this.pruneInjections();
      this.record(trigger, consolidated.length, archived.length, "");
      this.options.logger.info({ trigger, consolidated: consolidated.length, archived: archived.length }, "maintenance ran");
    } catch (error) {
      this.record(trigger, 0, 0, error instanceof Error ? error.message : String(error));
      this.options.logger.error({ err: error, trigger }, "maintenance failed");
    } finally {
      this.queued = false;
    }
  }

  /** Deletes the injection records past their retention (days, then rows). */
  private pruneInjections(): void {
    const { injections, now, logger } = this.options;
    if (!injections) return;
    const { days, rows } = injections.retention;
    try {
      const pruned = injections.log.prune(now() - days * DAY_MS, rows);
      if (pruned > 0) logger.info({ pruned, days, rows }, "injection records past their retention deleted");
    } catch (error) {
      // Another process holding the write lock, say: the next run prunes what this one left.
      logger.warn({ err: error }, "injection records could not be pruned");
    }
  }

  /** Chains runs so that two never overlap. */
  private exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    if (this.stopped) return Promise.reject(new UnavailableError("memd is stopping: maintenance is not started any more"));
    const next = this.running.catch(() => undefined).then(work);
    this.running = next;
    return next;
  }

  private current(): MemoryRecord[] {
    return [...this.options.store.exportAll()].filter((m) => m.status === "active" || m.status === "staged");
  }

  private vectorsFor(memories: readonly MemoryRecord[]): Map<string, Float32Array> {
    const { store, embeddings } = this.options;
    if (!embeddings) return new Map();
    const seqs = new Map(memories.map((m) => [store.seqOf(m.id) as number, m.id]));
    const vectors = embeddings.vectorsOf([...seqs.keys()]);
    return new Map([...vectors].map(([seq, vector]) => [seqs.get(seq) as string, vector]));
  }

  private cleanNow(dryRun: boolean): ArchivedAction[] {
    const { store, now } = this.options;
    const at = now();
    const memories = this.current();
    const reinforced = store.lastReinforcements();
    const groupSize = new Map<string, number>();
    for (const m of memories) groupSize.set(`${m.project}\u0000${m.kind}`, (groupSize.get(`${m.project}\u0000${m.kind}`) ?? 0) + 1);
    const small = memories.filter((m) => (groupSize.get(`${m.project}\u0000${m.kind}`) ?? 0) <= MAX_PAIRWISE_GROUP);
    const vectors = this.vectorsFor(small);
    const plan = planGc(
      memories.map((memory) => ({
        memory,
        decayWeight: decayWeight(memory, reinforced.get(memory.id) ?? null, at, this.options.halfLives),
        vector: vectors.get(memory.id) ?? null,
      })),
      at,
      DEFAULT_GC_CONFIG,
    );
    const actions = plan.map((p) => ({ memoryId: p.id, reason: p.reason, relatedId: p.duplicateOf ?? "" }));
    if (!dryRun) {
      for (const action of actions) {
        archiveMemory(store, action.memoryId, { at, reason: action.reason, detail: action.relatedId ? `${action.reason} of ${action.relatedId}` : action.reason });
      }
    }
    return actions;
  }

  private async consolidateNow(dryRun: boolean): Promise<ConsolidationAction[]> {
    const { store, now, newId, embeddings } = this.options;
    if (!embeddings) return [];
    const at = now();
    const reinforced = store.lastReinforcements();
    const memories = this.current().filter((m) => m.status === "active");
    const aging = memories
      .map((memory) => ({ memory, decayWeight: decayWeight(memory, reinforced.get(memory.id) ?? null, at, this.options.halfLives) }))
      .filter((item) => item.decayWeight < DEFAULT_CLUSTER_CONFIG.agingBelow);
    const vectors = this.vectorsFor(aging.map((item) => item.memory));
    const clusters = clusterAgingMemories(
      aging.map((item) => ({ ...item, vector: vectors.get(item.memory.id) ?? null })),
      DEFAULT_CLUSTER_CONFIG,
    ).filter((cluster) => cluster.length > 1);
    const actions: ConsolidationAction[] = [];
    for (const cluster of clusters) {
      const merged = mergeCluster(
        cluster.map((item) => ({ memory: item.memory, lastReinforcedAt: reinforced.get(item.memory.id) ?? null })),
        at,
        dryRun ? "" : newId(),
      );
      if (dryRun) {
        actions.push({ memory: merged.memory, originalIds: merged.archive.map((a) => a.id) });
        continue;
      }
      const { summariser } = this.options;
      const made = summariser ? await this.summarised(summariser, merged.memory, cluster.map((item) => item.memory)) : null;
      // Saves and updates go on while a model writes; a cluster that changed meanwhile waits for the next run.
      if (made && !this.unchanged(cluster.map((item) => item.memory), reinforced)) {
        this.options.logger.info({ originals: merged.archive.map((a) => a.id) }, "consolidation skipped: a memory changed while it was being summarised");
        continue;
      }
      const memory = made?.memory ?? merged.memory;
      actions.push({ memory, originalIds: merged.archive.map((a) => a.id) });
      this.ownMerges.add(memory.id);
      consolidateCluster(store, merged, memory, made?.how ?? "deterministic merge", at);
    }
    return actions;
  }

  /** The merge with the model's summary as its content, or the merge as it is when the model fails; says which. */
  private async summarised(summariser: ClusterSummariser, merged: MemoryRecord, members: readonly MemoryRecord[]): Promise<{ memory: MemoryRecord; how: string }> {
    let reason: string;
    try {
      const outcome = await summariser.summarise(members);
      if (outcome.ok) return { memory: withSummary(merged, outcome.summary), how: `summarised by ${outcome.madeBy}` };
      reason = outcome.reason;
    } catch (error) {
      // A summary is an improvement, never a requirement: whatever went wrong, the merge goes ahead.
      reason = error instanceof Error ? error.message : String(error);
    }
    this.options.logger.warn({ originals: members.map((m) => m.id), model: summariser.label, reason }, "consolidation fell back to the deterministic merge");
    return { memory: merged, how: `deterministic merge, ${summariser.label} failed` };
  }

  /** True when every member is stored exactly as planned and no reinforcement came in since. */
  private unchanged(members: readonly MemoryRecord[], reinforced: ReadonlyMap<string, number>): boolean {
    const now = this.options.store.lastReinforcements();
    return members.every((m) => JSON.stringify(this.options.store.get(m.id)) === JSON.stringify(m) && now.get(m.id) === reinforced.get(m.id));
  }
}
