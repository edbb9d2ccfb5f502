import type { RecordChange } from "../store/ports/change-feed.js";
import { coalesceChanges } from "./coalesce-changes.js";

/** What a consumer takes from its queue: the changes since it last took, and whether some were dropped. */
export interface ChangeBatch {
  changes: RecordChange[];
  /** Changes were dropped since the last take because the consumer fell behind: it should read again what it shows. */
  missed: boolean;
}

/**
 * A bounded queue between the change feed and a consumer that takes its time (a client at the
 * other end of a stream). The feed's side never waits: `push` only appends, and once more than
 * `maxPending` changes wait, what waits is dropped and the next take says so (`missed`) instead.
 * So a consumer that stopped reading costs at most `maxPending` changes of memory and no write
 * is held up for it.
 */
export class ChangeQueue {
  private pending: RecordChange[] = [];
  private missed = false;
  private wake: (() => void) | null = null;

  constructor(private readonly maxPending: number) {}

  /** The feed's side: a listener to subscribe. */
  readonly push = (changes: readonly RecordChange[]): void => {
    if (changes.length === 0) return;
    if (this.pending.length + changes.length > this.maxPending) {
      this.pending = [];
      this.missed = true;
    } else {
      this.pending.push(...changes);
    }
    this.wake?.();
  };

  /** The changes waiting, once there are some (or some were dropped); rejects with the signal's reason when it aborts first. */
  async take(signal: AbortSignal): Promise<ChangeBatch> {
    while (this.pending.length === 0 && !this.missed) {
      signal.throwIfAborted();
      await new Promise<void>((resolve) => {
        const done = () => {
          this.wake = null;
          signal.removeEventListener("abort", done);
          resolve();
        };
        this.wake = done;
        signal.addEventListener("abort", done, { once: true });
      });
    }
    const batch = { changes: coalesceChanges(this.pending), missed: this.missed };
    this.pending = [];
    this.missed = false;
    return batch;
  }
}
