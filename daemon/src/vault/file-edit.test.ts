import { describe, expect, it } from "vitest";
import type { MemoryRecord } from "../memory/memory.js";
import { fileEdit } from "./file-edit.js";

const stored: MemoryRecord = {
  id: "01JD8X4M2Q9W7E5R3T1Y6V8K0P", content: "Logs go to Loki.", kind: "fact", project: "ops", problem: "", solution: "",
  concepts: ["logging"], files: [], tags: [], confidence: 0.8, provenance: "save", tier: "regular", status: "active", pinned: false,
  importance: 3, valence: 0, intensity: 0, sessionId: "s1", sourceAgent: "claude-code", createdAt: 1, updatedAt: 2, lastAccessedAt: null,
  expiresAt: null, reviewAt: null, accessCount: 4, supersedes: "", supersededBy: "", archiveReason: "", invalidAt: null, author: "", editedBy: "", viaTeam: "",
};

describe("a person's edit of a memory's file", () => {
  it("asks for nothing when only what memd keeps to itself changed (history, times, session, usage)", () => {
    expect(fileEdit(stored, { ...stored, createdAt: 99, sessionId: "other", accessCount: 0 })).toEqual({ kind: "nothing" });
  });

  it("becomes a patch of exactly the fields that differ, lists compared by value", () => {
    expect(fileEdit(stored, { ...stored, content: "Logs go to Loki, 30 days.", concepts: ["logging", "retention"] })).toEqual({
      kind: "update",
      patch: { content: "Logs go to Loki, 30 days.", concepts: ["logging", "retention"] },
      status: null,
      changed: ["content", "concepts"],
    });
    expect(fileEdit(stored, { content: stored.content, concepts: ["logging"] })).toEqual({ kind: "nothing" });
  });

  it("archives, restores and promotes, and refuses the status changes only memd's commands make", () => {
    expect(fileEdit(stored, { status: "archived" })).toMatchObject({ kind: "update", status: { to: "archived", reason: "archived by editing its file in the vault" } });
    expect(fileEdit(stored, { status: "archived", archiveReason: "moved to the wiki" })).toMatchObject({ status: { reason: "moved to the wiki" } });
    expect(fileEdit({ ...stored, status: "archived" }, { status: "active" })).toMatchObject({ kind: "update", status: { to: "active" } });
    expect(fileEdit({ ...stored, status: "staged" }, { status: "active" })).toMatchObject({ kind: "update", status: { to: "active" } });
    expect(fileEdit(stored, { status: "superseded" })).toEqual({ kind: "refused", reason: expect.stringContaining("memctl supersede") });
    expect(fileEdit(stored, { status: "staged" })).toMatchObject({ kind: "refused" });
  });
});
