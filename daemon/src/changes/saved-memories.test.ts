import { describe, expect, it } from "vitest";
import type { RecordChange } from "../store/ports/change-feed.js";
import { savedMemories } from "./saved-memories.js";

const memory = (id: string, change: RecordChange["change"] = "created"): RecordChange => ({ kind: "memory", id, change, memoryId: id, project: "shop" });
const event = (memoryId: string, id: string): RecordChange => ({ kind: "memory_event", id, change: "created", memoryId, project: "shop" });

describe("savedMemories", () => {
  it("counts a memory created with its own history entry, not one copied without (an import) or one only updated", () => {
    const batch = [memory("saved"), event("saved", "1"), memory("imported"), memory("edited", "updated"), event("edited", "2")];
    expect(savedMemories(batch)).toEqual(["saved"]);
  });
});
