/**
 * The daemon's side of contradiction detection: what Save, Checkpoint and the transcript sweep
 * ask before they store a memory (detect), and Update when it changes what one says; what they
 * record after (record); and the work that runs off any request's path: the detector's index of
 * claims kept (memories changed, from the change feed, and every active memory once after start)
 * and imported memories checked, a few at a time; neighbours in meaning judged once a memory's
 * vector exists; and pairs the rules could not decide handed to the language model (MEMD_LLM,
 * under its daily cap) when one is configured.
 */
import type { ContradictionJudge } from "../llm/contradiction-judge.js";
import type { Logger } from "../logger.js";
import { isDatabaseLocked } from "../store/database-locked.js";
import type { MemoryRecord } from "../memory/memory.js";
import type { ContradictionRecord, ContradictionSource, MemoryStore, ScoredMemory } from "../store/store.js";
import { type Detection, type DetectedContradiction, createContradictionDetector, isNewer } from "./detector.js";
import { judgeContradiction, LIKELY_CONTRADICTION } from "./judge.js";

export interface ContradictionWatchOptions {
  store: MemoryStore;
  /** Judges the pairs the rules found possible; null without a language model. */
  judge: ContradictionJudge | null;
  logger: Logger;
  now: () => number;
}

/** The rules' own name, as the detector of what they find. */
export const RULES_DETECTOR = "rules";
/** Imported memories checked per turn of the event loop at most. */
const IMPORT_STEP = 20;
/**
 * And for this long at most, memories filed and checked together: reading a memory's claims takes
 * a fraction of a millisecond, and 4,000 imported at once must not hold up the vault's writer and
 * the requests for a minute (nor hold the event loop past the 5 s after which an idle keep-alive
 * connection is closed under a client).
 */
const STEP_MS = 4;
/**
 * After each step the check rests this many times as long as the step took, so that it takes at
 * most a third of the daemon's time: run back to back, 10,000 imported memories added 5-6 ms to
 * every request (Health, Get, a hook's Suggest) for as long as they were checked.
 */
const IMPORT_REST = 2;
/** How long checking imported memories waits when another process holds the database's write lock. */
const LOCKED_RETRY_MS = 1000;
/** Pairs waiting for the model at most; past it a pair is left unjudged (and logged), not queued without end. */
const MAX_JUDGE_QUEUE = 100;

interface PendingJudgement {
  newer: MemoryRecord;
  older: MemoryRecord;
  via: ContradictionSource;
  score: number;
}

export class ContradictionWatch {
  private readonly detector;
  /** Imported memories waiting to be checked, in order; each is filed in the index as it is checked. */
  private readonly imported = new Set<string>();
  private working: { cancel(): void } | undefined;
  private readonly unsubscribe: () => void;
  private readonly judgements: PendingJudgement[] = [];
  private judging: Promise<void> | null = null;
  private closed = false;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly options: ContradictionWatchOptions) {
    this.detector = createContradictionDetector(options.store, { judgesPossible: options.judge !== null });
    this.unsubscribe = options.store.changes.subscribe((changes) => {
      this.detector.changed(changes.filter((c) => c.kind === "memory").map((c) => c.id));
      this.workSoon();
    });
    this.workSoon();
  }

  /**
   * The active memories a memory about to be stored contradicts (likely), and those the model may
   * judge (possible); `edited` when an update changed what it says, which makes it the newer of each pair.
   */
  detect(memory: MemoryRecord, edited = false): Detection {
    return this.detector.detect(memory, edited);
  }

  /** Records the likely contradictions of a stored memory and queues the possible ones for the model; returns the pairs recorded now. */
  record(memory: MemoryRecord, detection: Detection, via: ContradictionSource): ContradictionRecord[] {
    this.detector.file(memory);
    const recorded = detection.likely.flatMap((found) => this.store(memory, found, via, RULES_DETECTOR) ?? []);
    for (const found of detection.possible) {
      const [newer, older] = found.otherIsNewer ? [found.other, memory] : [memory, found.other];
      this.queueJudgement({ newer, older, via, score: found.finding.score });
    }
    return recorded;
  }

  /** Whether two memories likely contradict: dedup by meaning must not merge such a pair into one. */
  contradicts(newer: MemoryRecord, older: MemoryRecord): boolean {
    return (judgeContradiction(this.detector.claimsOf(newer), this.detector.claimsOf(older))?.score ?? 0) >= LIKELY_CONTRADICTION;
  }

  /**
   * A newly embedded memory and its nearest neighbours in meaning: pairs the keyword and graph
   * search did not bring together at write ("the db port" and "Postgres") are judged here.
   */
  checkNeighbours(memory: MemoryRecord, neighbours: readonly ScoredMemory[]): void {
    if (memory.status !== "active" && memory.status !== "staged") return;
    const claims = this.detector.claimsOf(memory);
    for (const { memory: other } of neighbours) {
      if (other.id === memory.id || other.status !== "active" || other.kind === "trace" || memory.kind === "trace") continue;
      const newerFirst = isNewer(memory, other);
      const [newer, older] = newerFirst ? [memory, other] : [other, memory];
      const otherClaims = this.detector.claimsOf(other);
      const finding = newerFirst ? judgeContradiction(claims, otherClaims) : judgeContradiction(otherClaims, claims);
      if (!finding) continue;
      if (finding.score >= LIKELY_CONTRADICTION) this.store(newer, { other: older, finding, otherIsNewer: false }, "embedding", RULES_DETECTOR);
      else this.queueJudgement({ newer, older, via: "embedding", score: finding.score });
    }
  }

  /** Checks imported memories against the store, a few per turn of the event loop. */
  checkImported(ids: readonly string[]): void {
    if (this.closed || ids.length === 0) return;
    for (const id of ids) this.imported.add(id);
    this.workSoon();
  }

  /** Imported memories waiting to be checked (Health reports it). */
  get importsPending(): number {
    return this.imported.size;
  }

  /** Resolves once no memory waits to be filed or, imported, to be checked, and no pair waits for the model (tests wait on it). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops the background work; a judgement in flight is waited for. */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    this.working?.cancel();
    this.working = undefined;
    this.imported.clear();
    this.judgements.length = 0;
    await this.judging;
    this.wake();
  }

  /** Records the pair with its newer memory first, whichever of the two was being written. */
  private store(memory: MemoryRecord, found: DetectedContradiction, via: ContradictionSource, detector: string): ContradictionRecord | null {
    const { finding, other, otherIsNewer } = found;
    const [newer, older] = otherIsNewer ? [other, memory] : [memory, other];
    return this.options.store.contradictions.record({
      memoryId: newer.id,
      otherId: older.id,
      foundAt: this.options.now(),
      via,
      detector,
      score: finding.score,
      subject: finding.subject,
      newerSays: finding.newer,
      olderSays: finding.older,
    });
  }

  /** Files the next changed memories, then checks the next imported ones, after `restMs` (at once when 0). */
  private workSoon(restMs = 0): void {
    if (this.working || this.closed) return;
    const run = () => {
      this.working = undefined;
      const started = performance.now();
      const until = started + STEP_MS;
      // Imported memories are filed as they are checked (record), not read twice; so each is
      // checked against those imported before it.
      const locked = !this.detector.indexStep(until, (id) => this.imported.has(id)) && !this.checkImportedStep(until);
      if (this.closed) return;
      if (this.detector.indexing || this.imported.size > 0) this.workSoon(locked ? LOCKED_RETRY_MS : IMPORT_REST * (performance.now() - started));
      else this.wake();
    };
    // A timer and an immediate are cleared by different functions: clearImmediate given a timer
    // miscounts Node's immediates (a daemon stopped during the rest hung for good in vault.test.ts).
    if (restMs > 0) {
      const timer = setTimeout(run, restMs);
      this.working = { cancel: () => clearTimeout(timer) };
    } else {
      const immediate = setImmediate(run);
      this.working = { cancel: () => clearImmediate(immediate) };
    }
  }

  /** Checks the next imported memories, at least one, until `until` (performance.now()); false when the database was locked. */
  private checkImportedStep(until: number): boolean {
    let found = 0;
    let checked = 0;
    for (const id of this.imported) {
      if (checked === IMPORT_STEP || (checked > 0 && performance.now() > until)) break;
      try {
        const memory = this.options.store.get(id);
        if (memory && (memory.status === "active" || memory.status === "staged")) found += this.record(memory, this.detect(memory), "import").length;
        // Not recorded, so not filed: filed (or taken out of the index) as any changed memory is.
        else this.detector.changed([id]);
      } catch (error) {
        if (!isDatabaseLocked(error)) throw error;
        // Another process holds the write lock (a backup, a sqlite3 shell): the rest waits, and the daemon goes on.
        this.options.logger.warn({ retryInMs: LOCKED_RETRY_MS, waiting: this.imported.size }, "checking imported memories for contradictions paused: the database is locked by another process");
        return false;
      }
      this.imported.delete(id);
      checked += 1;
    }
    if (found > 0) this.options.logger.info({ found }, "imported memories contradict stored ones");
    return true;
  }

  private queueJudgement(pending: PendingJudgement): void {
    if (!this.options.judge || this.closed) return;
    if (this.judgements.length >= MAX_JUDGE_QUEUE) {
      this.options.logger.debug({ memory: pending.newer.id }, "contradiction judgements queued to the limit: a possible pair is left unjudged");
      return;
    }
    this.judgements.push(pending);
    this.judging ??= this.judgeAll()
      .catch((error: unknown) => this.options.logger.error({ err: error }, "judging possible contradictions failed"))
      .finally(() => {
        this.judging = null;
        this.wake();
      });
  }

  /** One pair at a time: the model's spend cap prices each call before it is made. */
  private async judgeAll(): Promise<void> {
    const judge = this.options.judge as ContradictionJudge;
    for (let next = this.judgements.shift(); next && !this.closed; next = this.judgements.shift()) {
      const verdict = await judge.judge(next.older.content, next.newer.content);
      if (!verdict.ok) {
        this.options.logger.warn({ model: judge.label, reason: verdict.reason }, "a possible contradiction was left unjudged");
        continue;
      }
      if (!verdict.contradicts) continue;
      const finding = { score: next.score, subject: verdict.subject, newer: verdict.newer, older: verdict.older };
      if (this.store(next.newer, { other: next.older, finding, otherIsNewer: false }, next.via, judge.label)) {
        this.options.logger.info({ memory: next.newer.id, other: next.older.id, model: judge.label }, "the language model found a contradiction");
      }
    }
  }

  private isIdle(): boolean {
    return this.imported.size === 0 && !this.detector.indexing && !this.working && this.judgements.length === 0 && this.judging === null;
  }

  private wake(): void {
    if (!this.isIdle() && !this.closed) return;
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
