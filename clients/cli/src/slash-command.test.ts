import { describe, expect, it } from "vitest";
import { slashCommandArgs } from "./slash-command.js";

describe("memctl slash", () => {
  it("maps each /memd action to its memctl command, load by default", () => {
    expect(slashCommandArgs([])).toEqual(["brief", "--via", "/memd load"]);
    expect(slashCommandArgs([""])).toEqual(["brief", "--via", "/memd load"]);
    expect(slashCommandArgs(["compact"])).toEqual(["consolidate"]);
    expect(slashCommandArgs(["Stats"])).toEqual(["stats"]);
    // Claude Code hands $ARGUMENTS over as one word when it is quoted.
    expect(slashCommandArgs([" health "])).toEqual(["health"]);
  });

  it("knows no other action, and takes nothing after one", () => {
    expect(slashCommandArgs(["purge"])).toBeNull();
    expect(slashCommandArgs(["clean", "--yes"])).toBeNull();
  });
});
