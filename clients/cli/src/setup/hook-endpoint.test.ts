import { describe, expect, it } from "vitest";
import { changeKind } from "./file-change.js";
import { hookEndpoint, planHookEndpoint, planHookEndpointRemoval } from "./hook-endpoint.js";

const FILES = { listenFile: "/home/maya/.memd/listen", tokenFile: "/home/maya/.memd/hook-token" };
const TOKEN = "a".repeat(64);

describe("the http hooks' endpoint", () => {
  it("keeps the recorded port and token, so that a second run changes nothing", () => {
    expect(hookEndpoint("127.0.0.1:41234\n", `${TOKEN}\n`, 5555, "new")).toEqual({ port: 41234, token: TOKEN });
    const contents = new Map([[FILES.listenFile, "127.0.0.1:41234\n"], [FILES.tokenFile, `${TOKEN}\n`]]);
    expect(planHookEndpoint(FILES, contents, { port: 41234, token: TOKEN }).map(changeKind)).toEqual(["unchanged", "unchanged"]);
  });

  it("takes the free port and a new token where nothing usable is recorded", () => {
    expect(hookEndpoint(null, null, 5555, "fresh-token")).toEqual({ port: 5555, token: "fresh-token" });
    expect(hookEndpoint("0.0.0.0:80", "short", 5555, "fresh-token")).toEqual({ port: 5555, token: "fresh-token" });
    const [listen, token] = planHookEndpoint(FILES, new Map(), { port: 5555, token: TOKEN });
    expect(listen).toMatchObject({ after: "127.0.0.1:5555\n", mode: 0o600, summary: ["listen on 127.0.0.1:5555 for Claude Code's http hooks"] });
    expect(token).toMatchObject({ after: `${TOKEN}\n`, mode: 0o600 });
  });

  it("takes the recorded address out on uninstall, and leaves the daemon's token", () => {
    expect(changeKind(planHookEndpointRemoval(FILES, new Map([[FILES.listenFile, "127.0.0.1:41234\n"]])))).toBe("delete");
    expect(changeKind(planHookEndpointRemoval(FILES, new Map()))).toBe("unchanged");
  });
});
