import { describe, expect, it } from "vitest";
import type { RecordChange } from "../store/ports/change-feed.js";
import { ChangeQueue } from "./change-queue.js";

const saved = (id: string): RecordChange => ({ kind: "memory", id, change: "created", memoryId: id, project: "shop" });

describe("ChangeQueue", () => {
  it("hands a waiting consumer every change pushed before it takes them, in order", async () => {
    const queue = new ChangeQueue(10);
    const taken = queue.take(new AbortController().signal);
    queue.push([saved("a")]);
    queue.push([saved("b")]);
    expect(await taken).toEqual({ changes: [saved("a"), saved("b")], missed: false });
    queue.push([saved("c")]);
    expect(await queue.take(new AbortController().signal)).toEqual({ changes: [saved("c")], missed: false });
  });

  it("never holds up the feed for a consumer that stopped reading: past its bound it drops what waits and says so", async () => {
    const queue = new ChangeQueue(100);
    for (let i = 0; i < 10_000; i += 1) queue.push([saved(`m${i}`)]);
    const first = await queue.take(new AbortController().signal);
    // At most the bound was ever held; the newest changes since the last drop are kept.
    expect(first.missed).toBe(true);
    expect(first.changes.length).toBeLessThanOrEqual(100);
    expect(first.changes.at(-1)).toEqual(saved("m9999"));
    queue.push([saved("next")]);
    expect(await queue.take(new AbortController().signal)).toEqual({ changes: [saved("next")], missed: false });
  });

  it("stops waiting with the signal's reason when the signal aborts", async () => {
    const queue = new ChangeQueue(10);
    const stop = new AbortController();
    const taken = queue.take(stop.signal);
    stop.abort(new Error("memd is shutting down"));
    await expect(taken).rejects.toThrow("memd is shutting down");
  });
});
