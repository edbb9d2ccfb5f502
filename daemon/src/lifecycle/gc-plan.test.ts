import { describe, expect, it } from "vitest";
import { DAY_MS } from "./half-lives.js";
import { DEFAULT_GC_CONFIG, type GcArchive, type GcCandidate, planGc } from "./gc-plan.js";

const now = Date.UTC(2026, 6, 1);
const config = DEFAULT_GC_CONFIG;

function item(
  id: string,
  overrides: Partial<GcCandidate["memory"]> = {},
  extra: Partial<Omit<GcCandidate, "memory">> = {},
): GcCandidate {
  return {
    memory: {
      id, content: "The api answers behind the internal load balancer.", project: "api", kind: "fact", status: "active", pinned: false, expiresAt: null,
      createdAt: now - DAY_MS, accessCount: 0, ...overrides,
    },
    decayWeight: 0.5,
    vector: [1, 0, 0],
    ...extra,
  };
}

/** Orthogonal unit vectors: memories that share nothing. */
const axis = (i: number) => [0, 1, 2].map((j) => (j === i ? 1 : 0));

/** What the store would hold after carrying out the plan. */
function apply(items: readonly GcCandidate[], plan: readonly GcArchive[]): GcCandidate[] {
  const archived = new Set(plan.map((a) => a.id));
  return items.map((i) => (archived.has(i.memory.id) ? { ...i, memory: { ...i.memory, status: "archived" } } : i));
}

describe("planGc", () => {
  it("archives a memory whose decay weight falls below 0.1", () => {
    const plan = planGc([item("A", {}, { decayWeight: 0.09 }), item("B", {}, { decayWeight: 0.1, vector: axis(1) })], now, config);
    expect(plan).toEqual([{ id: "A", reason: "decayed", duplicateOf: null }]);
  });

  it("never archives a pinned memory for decay", () => {
    expect(planGc([item("A", { pinned: true }, { decayWeight: 0 })], now, config)).toEqual([]);
  });

  it("archives a memory at its expiry time, even a pinned one", () => {
    const plan = planGc([item("A", { expiresAt: now, pinned: true }), item("B", { expiresAt: now + 1 }, { vector: axis(1) })], now, config);
    expect(plan).toEqual([{ id: "A", reason: "expired", duplicateOf: null }]);
  });

  it("prefers expired over decayed as the reason", () => {
    expect(planGc([item("A", { expiresAt: now }, { decayWeight: 0 })], now, config)[0]?.reason).toBe("expired");
  });

  it("archives a staged memory left uncorroborated too long", () => {
    const old = item("A", { status: "staged", createdAt: now - 30 * DAY_MS });
    const young = item("B", { status: "staged", createdAt: now - 29 * DAY_MS }, { vector: axis(1) });
    expect(planGc([old, young], now, config)).toEqual([{ id: "A", reason: "staged-stale", duplicateOf: null }]);
  });

  it("archives the less accessed of two near-duplicates", () => {
    const plan = planGc([item("A", { accessCount: 1 }), item("B", { accessCount: 4 }, { vector: [0.99, 0.1, 0] })], now, config);
    expect(plan).toEqual([{ id: "A", reason: "duplicate", duplicateOf: "B" }]);
  });

  it("keeps the older of two equally accessed duplicates", () => {
    const plan = planGc([item("A", { createdAt: now }), item("B", { createdAt: now - 5 })], now, config);
    expect(plan).toEqual([{ id: "A", reason: "duplicate", duplicateOf: "B" }]);
  });

  it("keeps the smaller id when all else is equal", () => {
    expect(planGc([item("B"), item("A")], now, config)).toEqual([{ id: "B", reason: "duplicate", duplicateOf: "A" }]);
  });

  it("keeps a pinned memory over a more accessed duplicate", () => {
    const plan = planGc([item("A", { pinned: true }), item("B", { accessCount: 100 })], now, config);
    expect(plan).toEqual([{ id: "B", reason: "duplicate", duplicateOf: "A" }]);
  });

  it("keeps both of two pinned duplicates", () => {
    expect(planGc([item("A", { pinned: true }), item("B", { pinned: true })], now, config)).toEqual([]);
  });

  it("keeps an active memory over a staged duplicate", () => {
    const plan = planGc([item("A", { status: "staged", accessCount: 9 }), item("B")], now, config);
    expect(plan).toEqual([{ id: "A", reason: "duplicate", duplicateOf: "B" }]);
  });

  it("keeps two near-identical memories that name different identifiers: failed commands on different paths", () => {
    const trace = (dir: string) => `Command failed: ls ${dir}\nExit code 2\nls: cannot access '${dir}': No such file or directory`;
    const plan = planGc([item("A", { kind: "trace", content: trace("/nonexistent-dir-xyz") }), item("B", { kind: "trace", content: trace("/nonexistent-gemini-only-dir") })], now, config);
    expect(plan).toEqual([]);
  });

  it("does not call memories duplicates at 0.95 similarity or across projects and kinds", () => {
    const at95 = [0.95, Math.sqrt(1 - 0.95 ** 2), 0];
    expect(planGc([item("A"), item("B", {}, { vector: at95 })], now, config)).toEqual([]);
    expect(planGc([item("A"), item("B", { project: "web" }), item("C", { kind: "decision" })], now, config)).toEqual([]);
  });

  it("ignores memories without vectors for duplicates and memories no longer live", () => {
    const plan = planGc(
      [item("A", {}, { vector: null }), item("B", {}, { vector: null }), item("C", { status: "archived" }, { decayWeight: 0 }),
        item("D", { status: "superseded", expiresAt: 0 })],
      now,
      config,
    );
    expect(plan).toEqual([]);
  });

  it("does not let a lapsed memory keep its duplicate alive or archive it", () => {
    const plan = planGc([item("A", { accessCount: 9 }, { decayWeight: 0.01 }), item("B")], now, config);
    expect(plan).toEqual([{ id: "A", reason: "decayed", duplicateOf: null }]);
  });

  it("uses configured thresholds", () => {
    expect(planGc([item("A", {}, { decayWeight: 0.55 })], now, { ...config, decayedBelow: 0.6 })[0]?.reason).toBe("decayed");
    const loose = { ...config, duplicateAbove: 0.5 };
    const plan = planGc([item("A"), item("B", { accessCount: 1 }, { vector: [0.6, 0.8, 0] })], now, loose);
    expect(plan).toEqual([{ id: "A", reason: "duplicate", duplicateOf: "B" }]);
  });

  it("changes nothing when run again on the store it produced", () => {
    // A chain of near-duplicates (A~B~C~D), lapsed memories and survivors mixed together.
    const step = (k: number) => [Math.cos(k * 0.2), Math.sin(k * 0.2), 0];
    const items = [
      item("A", { accessCount: 2 }, { vector: step(0) }),
      item("B", { accessCount: 1 }, { vector: step(1) }),
      item("C", { accessCount: 3 }, { vector: step(2) }),
      item("D", {}, { vector: step(3) }),
      item("E", {}, { vector: axis(2), decayWeight: 0.01 }),
      item("F", { expiresAt: now - 1 }, { vector: axis(1) }),
      item("G", { pinned: true }, { vector: step(1), decayWeight: 0 }),
      item("H", { status: "staged", createdAt: 0 }, { vector: axis(2) }),
    ];
    const plan = planGc(items, now, config);
    expect(plan.length).toBeGreaterThan(3);
    const after = apply(items, plan);
    expect(planGc(after, now, config)).toEqual([]);
    expect(planGc(after.filter((i) => i.memory.status !== "archived"), now, config)).toEqual([]);
  });

  it("gives the same plan whatever the input order", () => {
    const items = [
      item("A", { accessCount: 2 }), item("B", { accessCount: 2 }),
      item("C", {}, { decayWeight: 0 }), item("D", {}, { vector: axis(1) }),
    ];
    expect(planGc([...items].reverse(), now, config)).toEqual(planGc(items, now, config));
  });
});
