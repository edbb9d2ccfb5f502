import { describe, expect, it } from "vitest";
import type { MemoryJson } from "./proto-json.js";
import { composeBriefing } from "./session-briefing.js";

const memories = (kind: string, n: number, prefix: string): MemoryJson[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, content: `${prefix} memory ${i}`, kind, project: "api" }));

const sources = {
  project: "api",
  preferences: memories("MEMORY_KIND_PREFERENCE", 3, "P"),
  decisionsAndFacts: memories("MEMORY_KIND_DECISION", 3, "D"),
  episodes: memories("MEMORY_KIND_EPISODE", 2, "E"),
  reviewDue: memories("MEMORY_KIND_RULE", 2, "R"),
  skillProposals: [
    { memoryId: "S1", name: "run-migrations" },
    { memoryId: "S2", name: "squash-fixups" },
    { memoryId: "S3", name: "third-one" },
  ],
};

const items = (text: string) => text.split("\n").filter((line) => line.startsWith("- "));

describe("composeBriefing", () => {
  it("shows up to two skill proposals, one line each, within the eight-item cap", () => {
    const briefing = composeBriefing(sources);
    expect(items(briefing.text)).toHaveLength(8);
    expect(briefing.text).toContain("- Skill proposal: run-migrations (memctl skills approve S1)");
    expect(briefing.text).toContain("- Skill proposal: squash-fixups (memctl skills approve S2)");
    expect(briefing.text).not.toContain("third-one");
    // Proposals are pointers to act on, not injected memories.
    expect(briefing.ids).not.toContain("S1");
  });

  it("briefs skill proposals alone when there is nothing else to say", () => {
    const briefing = composeBriefing({ ...sources, preferences: [], decisionsAndFacts: [], episodes: [], reviewDue: [], skillProposals: [{ memoryId: "S1", name: "run-migrations" }] });
    expect(items(briefing.text)).toEqual(["- Skill proposal: run-migrations (memctl skills approve S1)"]);
  });

  it("says nothing without memories or proposals", () => {
    expect(composeBriefing({ ...sources, preferences: [], decisionsAndFacts: [], episodes: [], reviewDue: [], skillProposals: [] })).toEqual({ text: "", ids: [] });
  });
});
