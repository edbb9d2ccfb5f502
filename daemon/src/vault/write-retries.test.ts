import { describe, expect, it } from "vitest";
import { MAX_RETRY_MS, WriteRetries } from "./write-retries.js";

const job = { memoryId: "01JZ4TG8P0X3M9QK5RDWN7B2HC", token: 7 };

describe("WriteRetries", () => {
  it("makes a failed job wait 1 s, then twice as long after each failure, up to ten minutes", () => {
    const retries = new WriteRetries();
    const waits: number[] = [];
    let now = 0;
    for (let i = 0; i < 14; i++) {
      const { waitMs, retryAt } = retries.failed(job, "shop/fact/a.md", "no space left on device", now);
      waits.push(waitMs);
      expect(retries.waiting(job, retryAt - 1)).toBe(true);
      expect(retries.waiting(job, retryAt)).toBe(false);
      now = retryAt;
    }
    expect(waits.slice(0, 4)).toEqual([1000, 2000, 4000, 8000]);
    expect(waits.at(-1)).toBe(MAX_RETRY_MS);
    expect(retries.list(10, now - MAX_RETRY_MS)).toEqual([{ memoryId: job.memoryId, path: "shop/fact/a.md", reason: "no space left on device (failed 14 times; tried again in 600 s)" }]);
  });

  it("tries a job queued again since it failed at once, counting from its first failure again", () => {
    const retries = new WriteRetries();
    retries.failed(job, "shop/fact/a.md", "EACCES", 0);
    expect(retries.isRetry(job)).toBe(true);
    const changed = { ...job, token: 8 };
    expect(retries.isRetry(changed)).toBe(false);
    expect(retries.waiting(changed, 1)).toBe(false);
    expect(retries.failed(changed, "shop/fact/a.md", "EACCES", 1).attempts).toBe(1);
    retries.done(job.memoryId);
    expect(retries.size).toBe(0);
  });
});
