import { describe, expect, it } from "vitest";
import { authorLabel, authorshipOnHub, OWN } from "./author.js";

describe("authorLabel", () => {
  it("says nothing for the person's own memory", () => {
    expect(authorLabel(OWN)).toBe("");
  });

  it("names another person's memory and the team it came through", () => {
    expect(authorLabel({ author: "bo", editedBy: "", viaTeam: "core" })).toBe("from bo (team core)");
  });

  it("names a teammate who changed the person's own memory", () => {
    expect(authorLabel({ author: "", editedBy: "cy", viaTeam: "core" })).toBe("edited by cy (team core)");
  });

  it("names both when a third person changed another person's memory", () => {
    expect(authorLabel({ author: "bo", editedBy: "cy", viaTeam: "" })).toBe("from bo, edited by cy");
  });
});

describe("authorshipOnHub", () => {
  it("is the person's own when they own and wrote the version", () => {
    expect(authorshipOnHub({ owner: "ada", writtenBy: "ada", team: "core" }, "ada")).toEqual(OWN);
  });

  it("credits the owner, and a writer who is neither the owner nor the reader", () => {
    expect(authorshipOnHub({ owner: "bo", writtenBy: "bo", team: "core" }, "ada")).toEqual({ author: "bo", editedBy: "", viaTeam: "core" });
    expect(authorshipOnHub({ owner: "ada", writtenBy: "bo", team: "core" }, "ada")).toEqual({ author: "", editedBy: "bo", viaTeam: "core" });
    expect(authorshipOnHub({ owner: "bo", writtenBy: "ada", team: "core" }, "ada")).toEqual({ author: "bo", editedBy: "", viaTeam: "core" });
  });
});
