import { describe, expect, it } from "vitest";
import { isMemdHook } from "./claude-settings.js";
import { planCodexHooks, planCodexHooksRemoval } from "./codex-hooks.js";
import type { InstallPaths } from "./locations.js";
import { changeKind } from "./file-change.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };
const FILE = "/home/maya/.codex/hooks.json";
const theirs = { hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done", timeout: 5 }] }], SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "direnv export json" }] }] } };

describe("Codex hooks", () => {
  it("adds the briefing, the prompt pointers and the rollout sweeps through the curl shim on the codex routes, keeping the user's hooks", () => {
    const change = planCodexHooks(FILE, JSON.stringify(theirs, null, 2), paths, undefined);
    const hooks = (JSON.parse(change.after ?? "") as typeof theirs & { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks;
    expect(hooks.Stop?.[0]).toEqual(theirs.hooks.Stop[0]);
    expect(hooks.Stop?.[1]).toEqual({ hooks: [{ type: "command", command: "/bin/sh /opt/memd/hooks/memd-hook.sh stop /usr/bin/node /opt/memd/dist/hooks/src/main.js codex", timeout: 5 }] });
    expect(hooks.PreCompact?.[0]?.hooks[0]?.command).toBe("/bin/sh /opt/memd/hooks/memd-hook.sh pre-compact /usr/bin/node /opt/memd/dist/hooks/src/main.js codex");
    expect(hooks.SessionStart?.[0]).toEqual(theirs.hooks.SessionStart[0]);
    expect(hooks.SessionStart?.[1]?.hooks[0]?.command).toBe("/bin/sh /opt/memd/hooks/memd-hook.sh session-start /usr/bin/node /opt/memd/dist/hooks/src/main.js codex");
    expect(hooks.UserPromptSubmit?.[0]).toEqual({ hooks: [{ type: "command", command: "/bin/sh /opt/memd/hooks/memd-hook.sh user-prompt-submit /usr/bin/node /opt/memd/dist/hooks/src/main.js codex", timeout: 5 }] });
    expect(isMemdHook(hooks.UserPromptSubmit?.[0]?.hooks[0])).toBe(true);
    expect(change).toMatchObject({ target: "codex", summary: ["add hooks: SessionStart, UserPromptSubmit, Stop, PreCompact"], backup: true });
    expect(changeKind(planCodexHooks(FILE, change.after, paths, undefined))).toBe("unchanged");
    expect(JSON.parse(planCodexHooksRemoval(FILE, change.after, paths.hook).after ?? "")).toEqual(theirs);
  });

  it("creates hooks.json where there is none, and uninstall leaves none", () => {
    const created = planCodexHooks(FILE, null, paths, undefined);
    expect(changeKind(created)).toBe("create");
    expect(changeKind(planCodexHooksRemoval(FILE, null))).toBe("unchanged");
  });
});
