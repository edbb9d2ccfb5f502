import type { VaultJob } from "../store/vault-store.js";
import { backoffMs } from "../backoff.js";

/** The wait after a file's first failure; it doubles with each failure after. */
export const FIRST_RETRY_MS = 1000;
/** The longest wait between two tries of one file: a file that keeps failing is tried this often. */
export const MAX_RETRY_MS = 10 * 60_000;

/** A memory whose file could not be written, and why. */
export interface FailingFile {
  memoryId: string;
  path: string;
  reason: string;
  attempts: number;
  retryAt: number;
}

/**
 * The vault writer's jobs whose file failed, each waiting before it is tried again: 1 s after
 * its first failure, twice as long after each next one, up to MAX_RETRY_MS. A job queued again
 * since (its memory changed: a new token) is tried at once. Pure bookkeeping on an explicit `now`.
 */
export class WriteRetries {
  private readonly failing = new Map<string, FailingFile & { token: number }>();

  /** True when the job failed before and its wait is not over. */
  waiting(job: VaultJob, now: number): boolean {
    const failed = this.failing.get(job.memoryId);
    if (failed === undefined) return false;
    if (failed.token !== job.token) {
      this.failing.delete(job.memoryId);
      return false;
    }
    return failed.retryAt > now;
  }

  /** True when the job failed before: it is written alone, so that it fails by itself. */
  isRetry(job: VaultJob): boolean {
    return this.failing.get(job.memoryId)?.token === job.token;
  }

  /** Records a failure; returns it, with the wait before the next try. */
  failed(job: VaultJob, path: string, reason: string, now: number): FailingFile & { waitMs: number } {
    const previous = this.failing.get(job.memoryId);
    const attempts = previous?.token === job.token ? previous.attempts + 1 : 1;
    const waitMs = backoffMs(attempts, FIRST_RETRY_MS, MAX_RETRY_MS);
    const failing = { memoryId: job.memoryId, token: job.token, path, reason, attempts, retryAt: now + waitMs };
    this.failing.set(job.memoryId, failing);
    return { ...failing, waitMs };
  }

  /** The memory's file was written (or left as a person wrote it): nothing is waiting for it. */
  done(memoryId: string): void {
    this.failing.delete(memoryId);
  }

  /** When the first waiting job may be tried again; null when none waits. */
  nextRetryAt(): number | null {
    let next: number | null = null;
    for (const failed of this.failing.values()) if (next === null || failed.retryAt < next) next = failed.retryAt;
    return next;
  }

  get size(): number {
    return this.failing.size;
  }

  /** Up to `limit` failing files, each reason saying how often it failed and when it is tried again. */
  list(limit: number, now: number): { memoryId: string; path: string; reason: string }[] {
    return [...this.failing.values()].slice(0, limit).map((f) => ({
      memoryId: f.memoryId,
      path: f.path,
      reason: `${f.reason} (failed ${f.attempts} ${f.attempts === 1 ? "time" : "times"}; tried again in ${Math.max(0, Math.ceil((f.retryAt - now) / 1000))} s)`,
    }));
  }
}
