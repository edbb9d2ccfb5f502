import { describe, expect, it } from "vitest";
import type { MemoryRecord } from "../memory/memory.js";
import { buildMemory } from "../memory/new-memory.js";
import { DEFAULT_GRADUATION_CONFIG, skillEligibility } from "./skill-eligibility.js";

const now = Date.UTC(2026, 0, 10);

function memory(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  const base = buildMemory({ content: "Run make migrate-up before the tests.", kind: "procedure", project: "api" }, "M1", now - 1000, { maxContentBytes: 65536 });
  return { ...base, confidence: 0.5, ...overrides };
}

const unreinforced = { reinforcements: 0, decision: undefined };

describe("skillEligibility", () => {
  it("accepts an active procedure at the confidence threshold", () => {
    const verdict = skillEligibility(memory({ confidence: DEFAULT_GRADUATION_CONFIG.minConfidence }), unreinforced, now);
    expect(verdict).toEqual({ eligible: true, reason: "procedure, confidence 0.70" });
  });

  it("refuses a memory just below the threshold that was never reinforced", () => {
    const verdict = skillEligibility(memory({ confidence: 0.69 }), unreinforced, now);
    expect(verdict).toMatchObject({ eligible: false, why: "unproven" });
  });

  it("accepts a low-confidence preference reinforced once, and says so", () => {
    const verdict = skillEligibility(memory({ kind: "preference", confidence: 0.5 }), { reinforcements: 1, decision: undefined }, now);
    expect(verdict).toEqual({ eligible: true, reason: "preference, confidence 0.50, reinforced 1 time" });
  });

  it("refuses kinds other than procedures and preferences", () => {
    for (const kind of ["decision", "fact", "rule", "episode"] as const) {
      expect(skillEligibility(memory({ kind, confidence: 0.95 }), unreinforced, now)).toMatchObject({ eligible: false, why: "kind" });
    }
  });

  it("refuses staged, archived and superseded memories", () => {
    for (const status of ["staged", "archived", "superseded"] as const) {
      expect(skillEligibility(memory({ status, confidence: 0.95 }), unreinforced, now)).toMatchObject({ eligible: false, why: "status" });
    }
  });

  it("refuses an expired memory", () => {
    expect(skillEligibility(memory({ confidence: 0.95, expiresAt: now }), unreinforced, now)).toMatchObject({ eligible: false, why: "expired" });
    expect(skillEligibility(memory({ confidence: 0.95, expiresAt: now + 1 }), unreinforced, now).eligible).toBe(true);
  });

  it("refuses a memory decided on before, approved or dismissed", () => {
    const approved = { memoryId: "M1", decision: "approved" as const, skillPath: "/s/run/SKILL.md", at: now };
    expect(skillEligibility(memory({ confidence: 0.95 }), { reinforcements: 3, decision: approved }, now)).toMatchObject({
      eligible: false, why: "approved", message: expect.stringContaining("/s/run/SKILL.md"),
    });
    const dismissed = { ...approved, decision: "dismissed" as const, skillPath: "" };
    expect(skillEligibility(memory({ confidence: 0.95 }), { reinforcements: 3, decision: dismissed }, now)).toMatchObject({ eligible: false, why: "dismissed" });
  });
});
