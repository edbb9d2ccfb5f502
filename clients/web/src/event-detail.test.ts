import { describe, expect, it } from "vitest";
import { detailFields } from "./event-detail.js";

describe("detailFields", () => {
  it("puts an edit's recorded values under replaced, field by field, lists joined", () => {
    const detail = JSON.stringify({ content: "We deploy with Capistrano.", problem: "", solution: "", concepts: ["deploy"], files: [], confidence: 0.75, kind: "decision" });
    expect(detailFields("updated", detail)).toEqual([
      {
        label: "replaced",
        fields: [
          { label: "content", text: "We deploy with Capistrano." },
          { label: "problem", text: "-" },
          { label: "solution", text: "-" },
          { label: "concepts", text: "deploy" },
          { label: "files", text: "-" },
          { label: "confidence", text: "0.75" },
          { label: "kind", text: "decision" },
        ],
      },
    ]);
  });

  it("shows a hub conflict's kept machine and the replaced version, its times in UTC", () => {
    const detail = JSON.stringify({ kept: "a1b2", replaced: "c3d4", replacedVersion: { id: "01J", content: "Auth is Clerk", pinned: false, updatedAt: Date.UTC(2026, 11, 3, 9, 30), expiresAt: null } });
    expect(detailFields("conflict", detail)).toEqual([
      { label: "kept", text: "a1b2" },
      { label: "replaced", text: "c3d4" },
      {
        label: "replaced version",
        fields: [
          { label: "id", text: "01J" },
          { label: "content", text: "Auth is Clerk" },
          { label: "pinned", text: "no" },
          { label: "updated at", text: "2026-12-03 09:30:00" },
          { label: "expires at", text: "-" },
        ],
      },
    ]);
  });

  it("keeps a vault edit's own fields, and leaves a detail in words alone", () => {
    const edit = JSON.stringify({ provenance: "human", by: "editing shop/auth.md in the vault", changed: ["content"], replaced: { content: "old" } });
    expect(detailFields("updated", edit)).toEqual([
      { label: "provenance", text: "human" },
      { label: "by", text: "editing shop/auth.md in the vault" },
      { label: "changed", text: "content" },
      { label: "replaced", fields: [{ label: "content", text: "old" }] },
    ]);
    expect(detailFields("archived", "merged into 01JD (similarity 0.972)")).toBeNull();
    expect(detailFields("archived", "42")).toBeNull();
    expect(detailFields("archived", "[1,2]")).toBeNull();
  });
});
