import { describe, expect, it } from "vitest";
import type { MemoryRecord } from "../memory/memory.js";
import { buildMemory } from "../memory/new-memory.js";
import { type ClusterMember, mergeCluster } from "./merge-cluster.js";

const t0 = Date.UTC(2026, 0, 1);
const now = Date.UTC(2026, 6, 1);
const limits = { maxContentBytes: 4096 };

function member(id: string, overrides: Partial<MemoryRecord>, lastReinforcedAt: number | null = null): ClusterMember {
  const base = buildMemory({ content: "placeholder", project: "api", kind: "fact" }, id, t0, limits);
  return { memory: { ...base, ...overrides }, lastReinforcedAt };
}

const a = member("A", {
  content: "The API listens on port 8080. Health checks hit /healthz.",
  concepts: ["port", "health"], files: ["src/server.ts"], tags: ["ops"],
  confidence: 0.5, importance: 2, intensity: 0.1, valence: 0.2, createdAt: t0, accessCount: 3,
  lastAccessedAt: t0 + 10, reviewAt: null, expiresAt: null,
});
const b = member("B", {
  content: "the api listens on port 8080!\nTLS ends at the load balancer.",
  concepts: ["tls", "port"], files: ["deploy/lb.yaml"], tags: [],
  confidence: 0.85, provenance: "debate", tier: "core", importance: 4, intensity: 0.8, valence: -0.5,
  createdAt: t0 + 1000, accessCount: 5, lastAccessedAt: t0 + 50, reviewAt: t0 + 5000,
}, t0 + 9000);

describe("mergeCluster", () => {
  it("keeps each sentence once, oldest memory first", () => {
    const { memory } = mergeCluster([b, a], now, "NEW");
    expect(memory.content).toBe(
      "The API listens on port 8080. Health checks hit /healthz.\nTLS ends at the load balancer.",
    );
  });

  it("unions concepts, files and tags in first-seen order", () => {
    const { memory } = mergeCluster([b, a], now, "NEW");
    expect(memory.concepts).toEqual(["port", "health", "tls"]);
    expect(memory.files).toEqual(["src/server.ts", "deploy/lb.yaml"]);
    expect(memory.tags).toEqual(["ops"]);
  });

  it("takes the strongest confidence with its provenance, and core if any original was core", () => {
    const { memory } = mergeCluster([a, b], now, "NEW");
    expect(memory).toMatchObject({ confidence: 0.85, provenance: "debate", tier: "core" });
  });

  it("takes the highest importance and the most intense feeling", () => {
    const { memory } = mergeCluster([a, b], now, "NEW");
    expect(memory).toMatchObject({ importance: 4, intensity: 0.8, valence: -0.5 });
  });

  it("dates the merge from the earliest original and stamps the update now", () => {
    const { memory } = mergeCluster([b, a], now, "NEW");
    expect(memory).toMatchObject({ id: "NEW", createdAt: t0, updatedAt: now, status: "active", kind: "fact", project: "api" });
  });

  it("adds up access counts and keeps the latest access and the earliest review", () => {
    const { memory } = mergeCluster([a, b], now, "NEW");
    expect(memory).toMatchObject({ accessCount: 8, lastAccessedAt: t0 + 50, reviewAt: t0 + 5000 });
  });

  it("keeps no expiry unless every original expires, then the latest", () => {
    expect(mergeCluster([a, member("C", { expiresAt: now })], now, "NEW").memory.expiresAt).toBeNull();
    const both = [member("C", { expiresAt: now }), member("D", { expiresAt: now + 5 })];
    expect(mergeCluster(both, now, "NEW").memory.expiresAt).toBe(now + 5);
  });

  it("carries over the latest reinforcement", () => {
    expect(mergeCluster([a, b], now, "NEW").lastReinforcedAt).toBe(t0 + 9000);
    expect(mergeCluster([a], now, "NEW").lastReinforcedAt).toBe(t0);
  });

  it("archives every original with a link to the merged memory", () => {
    expect(mergeCluster([b, a], now, "NEW").archive).toEqual([
      { id: "A", archiveReason: "consolidated", supersededBy: "NEW" },
      { id: "B", archiveReason: "consolidated", supersededBy: "NEW" },
    ]);
  });

  it("gives the same result whatever the member order", () => {
    expect(mergeCluster([b, a], now, "NEW")).toEqual(mergeCluster([a, b], now, "NEW"));
  });

  it("refuses an empty cluster and one that mixes projects or kinds", () => {
    expect(() => mergeCluster([], now, "NEW")).toThrow(/at least one/);
    expect(() => mergeCluster([a, member("C", { project: "web" })], now, "NEW")).toThrow(/mixes projects or kinds/);
    expect(() => mergeCluster([a, member("C", { kind: "decision" })], now, "NEW")).toThrow(/mixes projects or kinds/);
  });
});
