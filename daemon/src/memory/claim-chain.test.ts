import { describe, expect, it } from "vitest";
import { buildMemory } from "./new-memory.js";
import { claimChain, followClaims } from "./claim-chain.js";
import type { MemoryRecord } from "./memory.js";

const limits = { maxContentBytes: 65536 };
const claim = (id: string, supersedes: string, supersededBy: string): MemoryRecord => ({
  ...buildMemory({ content: `claim ${id}`, project: "acme" }, id, 0, limits),
  supersedes,
  supersededBy,
});
const storeOf = (memories: MemoryRecord[]) => {
  const byId = new Map(memories.map((m) => [m.id, m]));
  return { get: (id: string) => byId.get(id) };
};

describe("claimChain", () => {
  it("lists a claim's corrections oldest first, from any claim of the chain", () => {
    const store = storeOf([claim("a", "", "b"), claim("b", "a", "c"), claim("c", "b", "")]);
    for (const id of ["a", "b", "c"]) expect(claimChain(store, store.get(id) as MemoryRecord).map((m) => m.id)).toEqual(["a", "b", "c"]);
  });

  it("stops at a cycle in imported data and at a link to a missing memory", () => {
    const cyclic = storeOf([claim("a", "b", "b"), claim("b", "a", "a")]);
    expect(claimChain(cyclic, cyclic.get("a") as MemoryRecord).map((m) => m.id)).toEqual(["b", "a"]);
    const broken = storeOf([claim("a", "", "gone")]);
    expect(followClaims(broken, broken.get("a") as MemoryRecord, "supersededBy")).toEqual([]);
  });
});
