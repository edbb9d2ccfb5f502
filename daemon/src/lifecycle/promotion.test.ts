import { describe, expect, it } from "vitest";
import { PROVENANCES } from "../memory/memory.js";
import { DAY_MS } from "./half-lives.js";
import {
  DEFAULT_PROMOTION_CONFIG, type Observation, type StagedMemory, evaluateCorroboration, initialStatus, stagedExpiry,
} from "./promotion.js";

const stagedAt = Date.UTC(2026, 0, 1);
const config = DEFAULT_PROMOTION_CONFIG;

function staged(overrides: Partial<StagedMemory> = {}): StagedMemory {
  return {
    id: "M1", status: "staged", project: "api", sessionId: "s1", confidence: 0.3, createdAt: stagedAt,
    corroboratingSessions: [], ...overrides,
  };
}

function seen(overrides: Partial<Observation> = {}): Observation {
  return { via: "write", sessionId: "s2", project: "api", similarity: 0.9, at: stagedAt + DAY_MS, ...overrides };
}

describe("initialStatus", () => {
  it("stages only what was inferred", () => {
    const staged = PROVENANCES.filter((p) => initialStatus(p) === "staged");
    expect(staged).toEqual(["distilled"]);
    expect(initialStatus("human")).toBe("active");
    expect(initialStatus("save")).toBe("active");
  });
});

describe("evaluateCorroboration", () => {
  it("promotes on a matching write from a different session", () => {
    expect(evaluateCorroboration(staged(), seen(), config)).toEqual({
      counts: true, promote: true, reason: "promoted", promotion: { status: "active", confidence: 0.5 },
    });
  });

  it("does not count a repeat from the session that staged it", () => {
    expect(evaluateCorroboration(staged(), seen({ sessionId: "s1" }), config)).toMatchObject({
      counts: false, promote: false, reason: "same-session",
    });
  });

  it("does not count a session that already corroborated twice", () => {
    const waiting = staged({ corroboratingSessions: ["s2"] });
    const twoNeeded = { ...config, corroborationsToPromote: 2 };
    expect(evaluateCorroboration(waiting, seen({ sessionId: "s2" }), twoNeeded)).toMatchObject({
      counts: false, reason: "already-corroborated",
    });
    expect(evaluateCorroboration(waiting, seen({ sessionId: "s3" }), twoNeeded)).toMatchObject({
      counts: true, promote: true,
    });
  });

  it("records but does not yet promote when more sessions are required", () => {
    const twoNeeded = { ...config, corroborationsToPromote: 2 };
    expect(evaluateCorroboration(staged(), seen(), twoNeeded)).toEqual({
      counts: true, promote: false, reason: "corroborated", promotion: null,
    });
  });

  it("does not count the staging session listed among the corroborators", () => {
    const odd = staged({ corroboratingSessions: ["s1"] });
    const twoNeeded = { ...config, corroborationsToPromote: 2 };
    expect(evaluateCorroboration(odd, seen(), twoNeeded)).toMatchObject({ counts: true, promote: false });
  });

  it("never counts a recall", () => {
    expect(evaluateCorroboration(staged(), seen({ via: "recall", similarity: 1 }), config)).toMatchObject({
      counts: false, promote: false, reason: "recall",
    });
  });

  it("does not count an observation without a session id", () => {
    expect(evaluateCorroboration(staged({ sessionId: "" }), seen({ sessionId: "" }), config)).toMatchObject({
      counts: false, reason: "no-session",
    });
  });

  it("counts an observation in the global project", () => {
    expect(evaluateCorroboration(staged(), seen({ project: "global" }), config).promote).toBe(true);
  });

  it("lets any project corroborate a global staged memory", () => {
    expect(evaluateCorroboration(staged({ project: "global" }), seen({ project: "web" }), config).promote).toBe(true);
  });

  it("does not count an observation from another project", () => {
    expect(evaluateCorroboration(staged(), seen({ project: "web" }), config)).toMatchObject({
      counts: false, reason: "other-project",
    });
  });

  it("counts similarity at the threshold but not below it", () => {
    expect(evaluateCorroboration(staged(), seen({ similarity: 0.85 }), config).counts).toBe(true);
    expect(evaluateCorroboration(staged(), seen({ similarity: 0.849 }), config)).toMatchObject({
      counts: false, reason: "below-threshold",
    });
    expect(evaluateCorroboration(staged(), seen({ similarity: Number.NaN }), config).counts).toBe(false);
  });

  it("uses a configured threshold", () => {
    expect(evaluateCorroboration(staged(), seen({ similarity: 0.9 }), { ...config, matchThreshold: 0.95 }).counts)
      .toBe(false);
  });

  it("does not count an observation older than the staged memory", () => {
    expect(evaluateCorroboration(staged(), seen({ at: stagedAt - 1 }), config)).toMatchObject({
      counts: false, reason: "before-staged",
    });
  });

  it("ignores a memory that is no longer staged", () => {
    expect(evaluateCorroboration(staged({ status: "active" }), seen(), config)).toMatchObject({
      counts: false, reason: "not-staged",
    });
  });

  it("keeps a staged confidence already above the promoted floor", () => {
    expect(evaluateCorroboration(staged({ confidence: 0.7 }), seen(), config).promotion).toEqual({
      status: "active", confidence: 0.7,
    });
  });
});

describe("stagedExpiry", () => {
  it("archives a staged memory once it reaches the maximum age", () => {
    expect(stagedExpiry(staged(), stagedAt + 30 * DAY_MS - 1, config)).toEqual({ archive: false, reason: "fresh" });
    expect(stagedExpiry(staged(), stagedAt + 30 * DAY_MS, config)).toEqual({ archive: true, reason: "staged-stale" });
  });

  it("uses a configured maximum age", () => {
    expect(stagedExpiry(staged(), stagedAt + DAY_MS, { stagedMaxAgeMs: DAY_MS }).archive).toBe(true);
  });

  it("leaves memories that are not staged alone", () => {
    expect(stagedExpiry(staged({ status: "active" }), stagedAt + 1000 * DAY_MS, config)).toEqual({
      archive: false, reason: "not-staged",
    });
  });
});
