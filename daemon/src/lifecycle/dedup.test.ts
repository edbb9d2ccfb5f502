import { describe, expect, it } from "vitest";
import { DEFAULT_DEDUP_CONFIG, type DedupCandidate, type ExistingMemory, dedupDecision, sameIdentifiers } from "./dedup.js";

const config = DEFAULT_DEDUP_CONFIG;
/** The fields a merge carries over, at their defaults. */
const UNREMARKABLE = { pinned: false, tier: "regular", importance: 3, reviewAt: null, expiresAt: null, problem: "", solution: "" } as const;

function candidate(overrides: Partial<DedupCandidate> = {}): DedupCandidate {
  return {
    content: "Use pnpm, not npm.", project: "api", kind: "preference", status: "active",
    concepts: ["pnpm"], files: [], tags: ["tooling"], confidence: 0.5, ...UNREMARKABLE, ...overrides,
  };
}

function stored(id: string, overrides: Partial<ExistingMemory["memory"]> = {}, similarity: number | null = null): ExistingMemory {
  return {
    memory: {
      id, content: "Something else entirely", project: "api", kind: "preference", status: "active",
      concepts: [], files: [], tags: [], confidence: 0.5, createdAt: 1000, ...UNREMARKABLE, ...overrides,
    },
    similarity,
  };
}

describe("dedupDecision", () => {
  it("inserts when nothing matches", () => {
    expect(dedupDecision(candidate(), [stored("A", {}, 0.5)], config)).toEqual({ action: "insert" });
  });

  it("merges into a memory with the same normalized content", () => {
    const decision = dedupDecision(candidate(), [stored("A", { content: "use PNPM not npm" })], config);
    expect(decision).toMatchObject({ action: "merge", targetId: "A", match: "exact" });
  });

  it("merges an exact repeat into the oldest copy", () => {
    const same = { content: "use pnpm not npm" };
    const decision = dedupDecision(candidate(), [stored("B", { ...same, createdAt: 2000 }), stored("A", same)], config);
    expect(decision).toMatchObject({ targetId: "A" });
  });

  it("prefers an exact match to a closer vector", () => {
    const decision = dedupDecision(
      candidate(),
      [stored("V", {}, 0.99), stored("E", { content: "Use pnpm not npm" }, 0.5)],
      config,
    );
    expect(decision).toMatchObject({ targetId: "E", match: "exact" });
  });

  it("merges into the most similar memory above 0.92", () => {
    const decision = dedupDecision(candidate(), [stored("A", {}, 0.93), stored("B", {}, 0.97)], config);
    expect(decision).toMatchObject({ action: "merge", targetId: "B", match: "similar", similarity: 0.97 });
  });

  it("does not merge similar memories that name different numbers", () => {
    const port = (n: number) => candidate({ content: `Local Postgres listens on port ${n}.` });
    const existing = stored("A", { content: "Local Postgres listens on port 5432." }, 0.99);
    expect(dedupDecision(port(5433), [existing], config)).toEqual({ action: "insert" });
    expect(dedupDecision(port(5432), [existing], config)).toMatchObject({ action: "merge", targetId: "A" });
  });

  it("does not merge at exactly 0.92 similarity", () => {
    expect(dedupDecision(candidate(), [stored("A", {}, 0.92)], config)).toEqual({ action: "insert" });
  });

  it("only merges within the same project and kind", () => {
    const repeat = { content: "Use pnpm, not npm." };
    expect(dedupDecision(candidate(), [stored("A", { ...repeat, project: "web" }, 1)], config).action).toBe("insert");
    expect(dedupDecision(candidate(), [stored("A", { ...repeat, kind: "fact" }, 1)], config).action).toBe("insert");
  });

  it("never merges into an archived or superseded memory", () => {
    const repeat = { content: "Use pnpm, not npm." };
    for (const status of ["archived", "superseded"] as const) {
      expect(dedupDecision(candidate(), [stored("A", { ...repeat, status }, 1)], config).action).toBe("insert");
    }
  });

  it("unions concepts, files and tags, keeps the stronger confidence and reinforces", () => {
    const target = stored("A", {
      content: "use pnpm not npm", concepts: ["tooling", "pnpm"], files: ["package.json"], tags: [], confidence: 0.95,
    });
    const decision = dedupDecision(candidate({ files: ["pnpm-lock.yaml"], confidence: 0.5 }), [target], config);
    expect(decision).toEqual({
      action: "merge", targetId: "A", match: "exact", similarity: null,
      changes: {
        concepts: ["tooling", "pnpm"], files: ["package.json", "pnpm-lock.yaml"], tags: ["tooling"],
        confidence: 0.95, reinforce: true, ...UNREMARKABLE,
      },
    });
  });

  it("raises confidence to the candidate's when it is stronger", () => {
    const decision = dedupDecision(candidate({ confidence: 0.95 }), [stored("A", {}, 0.95)], config);
    expect(decision.action === "merge" && decision.changes.confidence).toBe(0.95);
  });

  it("activates a staged memory that a person now states directly", () => {
    const decision = dedupDecision(candidate(), [stored("A", { status: "staged", confidence: 0.3 }, 0.96)], config);
    expect(decision.action === "merge" && decision.changes.status).toBe("active");
  });

  it("leaves a staged memory staged when the repeat is itself inferred", () => {
    const decision = dedupDecision(candidate({ status: "staged" }), [stored("A", { status: "staged" }, 0.96)], config);
    expect(decision.action === "merge" && "status" in decision.changes).toBe(false);
  });

  it("uses a configured threshold", () => {
    const decision = dedupDecision(candidate(), [stored("A", {}, 0.9)], { similarityThreshold: 0.85 });
    expect(decision.action).toBe("merge");
  });
});

describe("what a merge carries over", () => {
  it("keeps what either write asked for: pinned, core, the higher importance, the earlier review, no expiry unless both expire", () => {
    const repeat = { content: "Use pnpm, not npm." };
    const decision = dedupDecision(
      candidate({ pinned: true, importance: 5, reviewAt: 9000, expiresAt: null, solution: "pnpm install" }),
      [stored("A", { ...repeat, tier: "core", importance: 2, reviewAt: 12000, expiresAt: 50000, problem: "lockfile churn" })],
      config,
    );
    expect(decision).toMatchObject({
      action: "merge",
      changes: { pinned: true, tier: "core", importance: 5, reviewAt: 9000, expiresAt: null, problem: "lockfile churn", solution: "pnpm install" },
    });
  });
});

describe("sameIdentifiers", () => {
  it("compares the numbers, versions and numbered identifiers two texts name", () => {
    expect(sameIdentifiers("Retry 3 times on ECONNRESET", "retry 3 times when ECONNRESET happens")).toBe(true);
    expect(sameIdentifiers("Retry 3 times", "Retry 5 times")).toBe(false);
    expect(sameIdentifiers("Pin node 20.11.", "pin Node 20.11")).toBe(true);
    expect(sameIdentifiers("Fixed in PAY-1423", "Fixed in PAY-1424")).toBe(false);
    expect(sameIdentifiers("Use pnpm", "Use pnpm 9")).toBe(false);
    expect(sameIdentifiers("No numbers here", "None here either")).toBe(true);
  });

  it("compares the paths, error codes, names and flags two texts name", () => {
    expect(sameIdentifiers("Config lives in src/config/env.ts", "The config is read in src/config/env.ts.")).toBe(true);
    expect(sameIdentifiers("Config lives in src/config/env.ts", "Config lives in src/config/config.ts")).toBe(false);
    expect(sameIdentifiers("The upload fails with ECONNRESET", "The upload fails with ETIMEDOUT")).toBe(false);
    expect(sameIdentifiers("Call verifyAccessToken first", "Call verifyRefreshToken first")).toBe(false);
    expect(sameIdentifiers("Run the tests with --runInBand", "Run the tests with --run")).toBe(false);
  });

  it("tells apart failed commands that differ in their path or their program", () => {
    const trace = (command: string, error: string) => `Command failed: ${command}\nExit code 2\n${error}`;
    const ls = (dir: string) => trace(`ls ${dir}`, `ls: cannot access '${dir}': No such file or directory`);
    expect(sameIdentifiers(ls("/nonexistent-dir-xyz"), ls("/nonexistent-dir-xyz"))).toBe(true);
    expect(sameIdentifiers(ls("/nonexistent-dir-xyz"), ls("/nonexistent-gemini-only-dir"))).toBe(false);
    expect(sameIdentifiers(trace("npm test", "1 test failed"), trace("pnpm test", "1 test failed"))).toBe(false);
  });

  it("takes code spans and shell lines as identifiers, however they are written in the other text", () => {
    expect(sameIdentifiers("Always run `make lint` before pushing", "Always run make lint before you push")).toBe(true);
    expect(sameIdentifiers("Always run `make lint` before pushing", "Always run `make check` before pushing")).toBe(false);
    expect(sameIdentifiers("To reset the cache:\n$ rm -rf .turbo", "To reset the cache:\n$ rm -rf .next")).toBe(false);
  });

  it("ignores case and sentence punctuation around an identifier", () => {
    expect(sameIdentifiers("Errors: ECONNRESET.", "errors are econnreset")).toBe(true);
  });
});

describe("dedupDecision on memories that name different identifiers", () => {
  it("keeps a new failure trace apart from a near-identical one on another path", () => {
    const trace = (dir: string) => `Command failed: ls ${dir}\nExit code 2\nls: cannot access '${dir}': No such file or directory`;
    const older = stored("A", { kind: "trace", content: trace("/nonexistent-dir-xyz") }, 0.967);
    expect(dedupDecision(candidate({ kind: "trace", content: trace("/nonexistent-gemini-only-dir") }), [older], config)).toEqual({ action: "insert" });
    expect(dedupDecision(candidate({ kind: "trace", content: `${trace("/nonexistent-dir-xyz")}\n` }), [older], config)).toMatchObject({ action: "merge", targetId: "A" });
  });
});
