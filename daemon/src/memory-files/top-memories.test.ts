import { describe, expect, it } from "vitest";
import { DAY_MS, DEFAULT_HALF_LIVES } from "../lifecycle/half-lives.js";
import type { MemoryRecord } from "../memory/memory.js";
import { buildMemory } from "../memory/new-memory.js";
import { topMemories } from "./top-memories.js";

const now = Date.UTC(2026, 6, 1);

function memory(id: string, overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  const base = buildMemory({ content: `memory ${id}`, project: "api", kind: "fact" }, id, now - DAY_MS, { maxContentBytes: 4096 });
  return { ...base, confidence: 0.5, ...overrides };
}

const ids = (memories: readonly MemoryRecord[]) => memories.map((m) => m.id);

describe("topMemories", () => {
  it("lists only active memories: never staged, superseded or archived ones", () => {
    const memories = [
      memory("A", { status: "staged", confidence: 1 }),
      memory("B", { status: "superseded", confidence: 1 }),
      memory("C", { status: "archived", confidence: 1 }),
      memory("D"),
    ];
    expect(ids(topMemories(memories, new Map(), now, DEFAULT_HALF_LIVES))).toEqual(["D"]);
  });

  it("keeps the five with the highest lifecycle score, best first", () => {
    const memories = [
      memory("A", { confidence: 0.2 }),
      memory("B", { confidence: 0.9 }),
      memory("C", { confidence: 0.6, accessCount: 100 }),
      memory("D", { confidence: 0.6 }),
      memory("E", { confidence: 0.3 }),
      memory("F", { confidence: 0.4 }),
      memory("G", { kind: "trace", confidence: 0.9, createdAt: now - 30 * DAY_MS }),
    ];
    expect(ids(topMemories(memories, new Map(), now, DEFAULT_HALF_LIVES))).toEqual(["C", "B", "D", "F", "E"]);
  });

  it("ranks a recently reinforced memory above an equal one that has been fading", () => {
    const old = { kind: "episode" as const, createdAt: now - 20 * DAY_MS };
    const memories = [memory("A", old), memory("B", old)];
    const reinforced = new Map([["B", now - DAY_MS]]);
    expect(ids(topMemories(memories, reinforced, now, DEFAULT_HALF_LIVES))).toEqual(["B", "A"]);
  });

  it("breaks ties by importance, then by the newer id, so the order is stable", () => {
    const memories = [memory("A", { pinned: true }), memory("B", { pinned: true, importance: 5 }), memory("C", { pinned: true })];
    expect(ids(topMemories(memories, new Map(), now, DEFAULT_HALF_LIVES))).toEqual(["B", "C", "A"]);
  });
});
