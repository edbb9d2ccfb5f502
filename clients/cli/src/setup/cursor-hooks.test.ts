import { describe, expect, it } from "vitest";
import { planCursorHooks } from "./cursor-hooks.js";
import type { InstallPaths } from "./locations.js";
import { changeKind } from "./file-change.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };
const FILE = "/home/maya/.cursor/hooks.json";
const theirs = { version: 1, hooks: { sessionStart: [{ command: "./warm-cache.sh" }], afterFileEdit: [{ command: "./format.sh" }] } };

describe("Cursor hooks", () => {
  it("adds memd's entries after the user's, and keeps their other hooks", () => {
    const change = planCursorHooks(FILE, JSON.stringify(theirs, null, 2), paths, undefined, paths.hook);
    const after = JSON.parse(change.after ?? "") as typeof theirs;
    expect(after.hooks.afterFileEdit).toEqual(theirs.hooks.afterFileEdit);
    expect(after.hooks.sessionStart).toEqual([
      { command: "./warm-cache.sh" },
      { command: "/bin/sh /opt/memd/hooks/memd-hook.sh session-start /usr/bin/node /opt/memd/dist/hooks/src/main.js cursor", timeout: 10 },
    ]);
    const shim = (arg: string) => `/bin/sh /opt/memd/hooks/memd-hook.sh ${arg} /usr/bin/node /opt/memd/dist/hooks/src/main.js cursor`;
    expect((after.hooks as Record<string, unknown>).postToolUseFailure).toEqual([{ command: shim("post-tool-use-failure"), timeout: 5, matcher: "Shell" }]);
    expect((after.hooks as Record<string, unknown>).sessionEnd).toEqual([{ command: shim("session-end"), timeout: 5 }]);
    expect((after.hooks as Record<string, unknown>).preCompact).toEqual([{ command: shim("pre-compact"), timeout: 10 }]);
    expect(change.summary).toEqual(["add hook: sessionStart", "add hook: postToolUseFailure", "add hook: sessionEnd", "add hook: preCompact"]);
    expect(changeKind(planCursorHooks(FILE, change.after, paths, undefined, paths.hook))).toBe("unchanged");
    expect(JSON.parse(planCursorHooks(FILE, change.after, undefined, undefined, paths.hook).after ?? "")).toEqual(theirs);
  });

  it("creates hooks.json with version 1 where there is none, and removes the file it alone filled", () => {
    const created = planCursorHooks(FILE, null, paths, undefined, paths.hook);
    expect(JSON.parse(created.after ?? "")).toMatchObject({ version: 1, hooks: { sessionStart: [{ timeout: 10 }] } });
    expect(changeKind(planCursorHooks(FILE, created.after, undefined, undefined, paths.hook))).toBe("delete");
  });

  it("takes out a memd entry under an event it no longer uses, and only that one", () => {
    const old = { version: 1, hooks: { stop: [{ command: "./theirs.sh" }, { command: "/bin/sh /opt/memd/hooks/memd-hook.sh stop /usr/bin/node /opt/memd/dist/hooks/src/main.js cursor" }] } };
    const change = planCursorHooks(FILE, JSON.stringify(old), paths, undefined, paths.hook);
    expect((JSON.parse(change.after ?? "") as typeof old).hooks.stop).toEqual([{ command: "./theirs.sh" }]);
    expect(change.summary).toContain("remove memd's stop hook");
  });
});
