import { describe, expect, it } from "vitest";
import { unionLists } from "./union-lists.js";

describe("unionLists", () => {
  it("keeps the first occurrence of each entry in order", () => {
    expect(unionLists([["auth", "jwt"], ["jwt", "oauth"], ["auth"]])).toEqual(["auth", "jwt", "oauth"]);
  });

  it("stops at the limit, keeping the earlier entries", () => {
    expect(unionLists([["a", "b"], ["c", "d"]], 3)).toEqual(["a", "b", "c"]);
  });

  it("caps at 64 entries by default, the validation limit", () => {
    const many = Array.from({ length: 100 }, (_, i) => `c${i}`);
    expect(unionLists([many])).toHaveLength(64);
  });
});
