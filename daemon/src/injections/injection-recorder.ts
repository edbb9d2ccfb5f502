import type { Logger } from "../logger.js";
import type { InjectionLog } from "../store/store.js";
import type { InjectionEntry, NewInjection } from "./injection.js";
import { promptExcerpt } from "./prompt-excerpt.js";

/** The most of an injection's text the record keeps; its tokens count all of it. */
export const RECORDED_TEXT_CHARS = 32_000;

export interface InjectionRecorderOptions {
  log: Pick<InjectionLog, "add">;
  /** Tokens of each text, in order (a TokenThread's count). */
  countTokens: (texts: string[]) => Promise<number[]>;
  logger: Logger;
}

/**
 * Records what Brief, Suggest and Recall gave, off the request's path: `record` only queues the
 * answer; the tokens are counted (in the token thread), the prompt redacted and bounded, and the
 * queue stored in one transaction, after the answer has gone. What queues meanwhile is stored
 * in the next batch. A reader calls `settled` first, so that it sees every answer given before
 * it asked.
 */
export class InjectionRecorder {
  private queue: InjectionEntry[] = [];
  private draining: Promise<void> | null = null;

  constructor(private readonly options: InjectionRecorderOptions) {}

  record(entry: InjectionEntry): void {
    this.queue.push(entry);
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  /** Resolves once every answer recorded before the call is stored (or failed to be, which is logged). */
  async settled(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        const tokens = await this.options.countTokens(batch.map((entry) => entry.text));
        this.options.log.add(batch.map((entry, i): NewInjection => ({
          ...entry,
          prompt: promptExcerpt(entry.prompt),
          text: entry.text.slice(0, RECORDED_TEXT_CHARS),
          tokens: tokens[i] ?? 0,
        })));
      } catch (error) {
        // The agent has its answer; only the record of it is lost, and said so.
        this.options.logger.error({ err: error, injections: batch.length }, "injections could not be recorded");
      }
    }
  }
}
