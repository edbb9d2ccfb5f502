import { describe, expect, it } from "vitest";
import { DAY_MS } from "../lifecycle/half-lives.js";
import type { MemoryRecord } from "../memory/memory.js";
import { buildMemory } from "../memory/new-memory.js";
import { DEFAULT_GRADUATION_CONFIG, type GraduationFacts, skillEligibility } from "./skill-eligibility.js";

const now = Date.UTC(2026, 0, 10);
const savedAt = now - 10 * DAY_MS;
const HOUR_MS = 60 * 60 * 1000;

/** A procedure saved ten days ago in session s-1. */
function memory(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  const base = buildMemory({ content: "Run make migrate-up before the tests.", kind: "procedure", project: "api", sessionId: "s-1" }, "M1", savedAt, { maxContentBytes: 65536 });
  return { ...base, confidence: 0.5, ...overrides };
}

const unused: GraduationFacts = { reinforcements: [], decision: undefined };
/** Saved again from another session, four days after it was first saved. */
const savedAgain: GraduationFacts = { reinforcements: [{ sessionId: "s-2", at: savedAt + 4 * DAY_MS }], decision: undefined };
/** Read back through recall five days after it was saved. */
const readBack = { lastAccessedAt: savedAt + 5 * DAY_MS, accessCount: 2 };

describe("skillEligibility", () => {
  it("accepts a memory saved again in another session days after it was first saved, and says so", () => {
    const verdict = skillEligibility(memory({ kind: "preference" }), savedAgain, now);
    expect(verdict).toEqual({ eligible: true, reason: "preference, confidence 0.50, saved again once in later sessions, the last 4 days after it was first saved" });
  });

  it("accepts a confident memory read back days after it was saved", () => {
    const verdict = skillEligibility(memory({ confidence: DEFAULT_GRADUATION_CONFIG.minConfidence, ...readBack }), unused, now);
    expect(verdict).toEqual({ eligible: true, reason: "procedure, confidence 0.70, read back 5 days after it was saved" });
  });

  it("refuses a confident preference minutes after it was saved, however it was stated", () => {
    const fresh = memory({ kind: "preference", confidence: 0.95, provenance: "human", createdAt: now - 5 * 60_000, lastAccessedAt: now, accessCount: 1 });
    const again = { reinforcements: [{ sessionId: "s-2", at: now }], decision: undefined };
    for (const facts of [unused, again]) {
      const verdict = skillEligibility(fresh, facts, now);
      expect(verdict).toMatchObject({ eligible: false, why: "unproven", message: expect.stringContaining("was saved 0 hours ago") });
    }
  });

  it("refuses a memory used only in the session that saved it, however long after", () => {
    const sameSession = { reinforcements: [{ sessionId: "s-1", at: savedAt + 5 * DAY_MS }], decision: undefined };
    expect(skillEligibility(memory({ confidence: 0.95 }), sameSession, now)).toMatchObject({ eligible: false, why: "unproven" });
  });

  it("counts a repeat with no session named (memctl add), days later", () => {
    const byHand = { reinforcements: [{ sessionId: "", at: savedAt + 3 * DAY_MS }], decision: undefined };
    expect(skillEligibility(memory({ sessionId: "" }), byHand, now).eligible).toBe(true);
  });

  it("refuses a memory used again only within the first three days", () => {
    const soon = { reinforcements: [{ sessionId: "s-2", at: savedAt + 3 * DAY_MS - HOUR_MS }], decision: undefined };
    expect(skillEligibility(memory({ confidence: 0.95 }), soon, now)).toMatchObject({ eligible: false, why: "unproven" });
    expect(skillEligibility(memory({ confidence: 0.95, lastAccessedAt: savedAt + 2 * DAY_MS }), unused, now)).toMatchObject({ eligible: false, why: "unproven" });
  });

  it("refuses a memory read back days later when its confidence is below the threshold", () => {
    const verdict = skillEligibility(memory({ confidence: 0.69, ...readBack }), unused, now);
    expect(verdict).toMatchObject({ eligible: false, why: "unproven", message: expect.stringContaining("saved 10 days ago") });
  });

  it("refuses kinds other than procedures and preferences", () => {
    for (const kind of ["decision", "fact", "rule", "episode"] as const) {
      expect(skillEligibility(memory({ kind, confidence: 0.95 }), savedAgain, now)).toMatchObject({ eligible: false, why: "kind" });
    }
  });

  it("refuses staged, archived and superseded memories", () => {
    for (const status of ["staged", "archived", "superseded"] as const) {
      expect(skillEligibility(memory({ status, confidence: 0.95 }), savedAgain, now)).toMatchObject({ eligible: false, why: "status" });
    }
  });

  it("refuses an expired memory", () => {
    expect(skillEligibility(memory({ confidence: 0.95, expiresAt: now }), savedAgain, now)).toMatchObject({ eligible: false, why: "expired" });
    expect(skillEligibility(memory({ confidence: 0.95, expiresAt: now + 1 }), savedAgain, now).eligible).toBe(true);
  });

  it("refuses a memory decided on before, approved or dismissed", () => {
    const approved = { memoryId: "M1", decision: "approved" as const, skillPath: "/s/run/SKILL.md", at: now };
    expect(skillEligibility(memory({ confidence: 0.95 }), { ...savedAgain, decision: approved }, now)).toMatchObject({
      eligible: false, why: "approved", message: expect.stringContaining("/s/run/SKILL.md"),
    });
    const dismissed = { ...approved, decision: "dismissed" as const, skillPath: "" };
    expect(skillEligibility(memory({ confidence: 0.95 }), { ...savedAgain, decision: dismissed }, now)).toMatchObject({ eligible: false, why: "dismissed" });
  });
});
