import { describe, expect, it } from "vitest";
import { buildMemory } from "../memory/new-memory.js";
import type { MemoryRecord } from "../memory/memory.js";
import { mergeReads } from "../memory/merge-reads.js";
import { conflictEvent, conflictKey, sameMemory, winnerOf } from "./conflict.js";

const base = buildMemory({ content: "deploys go through the staging cluster", project: "api" }, "01JCONFLICT00000000000000A", 1_000, { maxContentBytes: 10_000 });
const version = (record: Partial<MemoryRecord>, machine: string) => ({ record: { ...base, ...record }, machine });

describe("the conflict rule", () => {
  it("keeps the later change", () => {
    const a = version({ content: "edit on a", updatedAt: 2_000 }, "a");
    const b = version({ content: "edit on b", updatedAt: 3_000 }, "b");
    expect(winnerOf(a, b)).toBe(b);
    expect(winnerOf(b, a)).toBe(b);
  });

  it("never undoes a supersede with a concurrent edit, however late", () => {
    const superseded = version({ status: "superseded", supersededBy: "01JCONFLICT00000000000000B", updatedAt: 2_000 }, "a");
    const edit = version({ content: "edited later", updatedAt: 9_000 }, "b");
    expect(winnerOf(edit, superseded)).toBe(superseded);
  });

  it("decides a tie in the same millisecond by machine id, the same on every machine", () => {
    const a = version({ content: "x", updatedAt: 2_000 }, "aaa");
    const b = version({ content: "y", updatedAt: 2_000 }, "bbb");
    expect(winnerOf(a, b)).toBe(b);
    expect(winnerOf(b, a)).toBe(b);
  });

  it("keeps the losing version whole in the history entry, under a key that does not change on a retry", () => {
    const loser = version({ content: "lost", updatedAt: 2_000 }, "a");
    const winner = version({ content: "kept", updatedAt: 3_000 }, "b");
    const event = conflictEvent(loser, winner, 5_000);
    expect(event.action).toBe("conflict");
    expect(JSON.parse(event.detail).replacedVersion.content).toBe("lost");
    expect(conflictKey(loser, winner)).toBe(conflictKey(version({ content: "lost", updatedAt: 2_000, accessCount: 7 }, "a"), winner));
    expect(conflictKey(loser, winner)).not.toBe(conflictKey(winner, loser));
  });

  it("does not count reads as changes, and keeps this machine's reads over another's", () => {
    const read = { ...base, accessCount: 5, lastAccessedAt: 4_000 };
    expect(sameMemory(base, read)).toBe(true);
    expect(sameMemory(base, { ...base, tags: ["x"] })).toBe(false);
    const merged = mergeReads({ ...base, content: "new", accessCount: 1, lastAccessedAt: 2_000 }, read);
    expect(merged).toMatchObject({ content: "new", accessCount: 5, lastAccessedAt: 4_000 });
    expect(mergeReads(base, undefined)).toBe(base);
  });
});
