import { describe, expect, it } from "vitest";
import { planCursorHooks } from "./cursor-hooks.js";
import type { InstallPaths } from "./locations.js";
import { changeKind } from "./plan.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };
const FILE = "/home/maya/.cursor/hooks.json";
const theirs = { version: 1, hooks: { sessionStart: [{ command: "./warm-cache.sh" }], afterFileEdit: [{ command: "./format.sh" }] } };

describe("Cursor hooks", () => {
  it("adds memd's sessionStart entry after the user's, and keeps their other hooks", () => {
    const change = planCursorHooks(FILE, JSON.stringify(theirs, null, 2), paths, undefined, paths.hook);
    const after = JSON.parse(change.after ?? "") as typeof theirs;
    expect(after.hooks.afterFileEdit).toEqual(theirs.hooks.afterFileEdit);
    expect(after.hooks.sessionStart).toEqual([
      { command: "./warm-cache.sh" },
      { command: "/bin/sh /opt/memd/hooks/memd-hook.sh session-start /usr/bin/node /opt/memd/dist/hooks/src/main.js cursor", timeout: 10 },
    ]);
    expect(change.summary).toEqual(["add hook: sessionStart"]);
    expect(changeKind(planCursorHooks(FILE, change.after, paths, undefined, paths.hook))).toBe("unchanged");
    expect(JSON.parse(planCursorHooks(FILE, change.after, undefined, undefined, paths.hook).after ?? "")).toEqual(theirs);
  });

  it("creates hooks.json with version 1 where there is none, and removes the file it alone filled", () => {
    const created = planCursorHooks(FILE, null, paths, undefined, paths.hook);
    expect(JSON.parse(created.after ?? "")).toMatchObject({ version: 1, hooks: { sessionStart: [{ timeout: 10 }] } });
    expect(changeKind(planCursorHooks(FILE, created.after, undefined, undefined, paths.hook))).toBe("delete");
  });
});
