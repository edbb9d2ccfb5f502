import { describe, expect, it } from "vitest";
import type { ChangeKind, RecordChange } from "../store/ports/change-feed.js";
import { coalesceChanges } from "./coalesce-changes.js";

const change = (id: string, kind: ChangeKind, project = "shop"): RecordChange => ({ kind: "memory", id, change: kind, memoryId: id, project });

describe("coalesceChanges", () => {
  it("keeps one change per record at the place of its first, with its last project", () => {
    expect(coalesceChanges([change("a", "created"), change("b", "updated"), change("a", "updated", "ops"), change("b", "updated")])).toEqual([
      change("a", "created", "ops"),
      change("b", "updated"),
    ]);
  });

  it("leaves out a record created and deleted in the same batch, and calls one deleted and created again updated", () => {
    expect(coalesceChanges([change("a", "created"), change("a", "deleted"), change("b", "deleted"), change("b", "created")])).toEqual([change("b", "updated")]);
  });

  it("says deleted for a record updated and then deleted", () => {
    expect(coalesceChanges([change("a", "updated"), change("a", "deleted")])).toEqual([change("a", "deleted")]);
  });

  it("tells records of different kinds with the same id apart", () => {
    const event: RecordChange = { kind: "memory_event", id: "a", change: "created", memoryId: "m", project: "shop" };
    expect(coalesceChanges([change("a", "created"), event])).toEqual([change("a", "created"), event]);
  });
});
