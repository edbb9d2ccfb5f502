import { describe, expect, it } from "vitest";
import { compareIds } from "./id-order.js";

describe("compareIds", () => {
  it("orders by code unit, so upper case sorts before lower case whatever the locale", () => {
    expect(["b", "B", "a", "A"].sort(compareIds)).toEqual(["A", "B", "a", "b"]);
  });

  it("sorts ULIDs by creation time", () => {
    expect(["01J0000000000000000000000B", "01H0000000000000000000000A"].sort(compareIds)).toEqual([
      "01H0000000000000000000000A", "01J0000000000000000000000B",
    ]);
  });

  it("is zero for equal ids", () => {
    expect(compareIds("x", "x")).toBe(0);
  });
});
