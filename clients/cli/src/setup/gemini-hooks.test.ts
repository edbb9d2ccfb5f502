import { describe, expect, it } from "vitest";
import { isMemdHook } from "./claude-settings.js";
import { planGeminiHooks, planGeminiHooksRemoval } from "./gemini-hooks.js";
import type { InstallPaths } from "./locations.js";
import { changeKind } from "./file-change.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };
const FILE = "/home/maya/.gemini/settings.json";
const theirs = { theme: "GitHub", hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: "./audit.sh", timeout: 2000 }] }] } };

describe("Gemini CLI hooks", () => {
  it("adds the briefing, the pointers, the shell failures and the sweeps, timeouts in milliseconds, keeping the user's settings", () => {
    const change = planGeminiHooks(FILE, JSON.stringify(theirs, null, 2), paths, undefined);
    const after = JSON.parse(change.after ?? "") as typeof theirs & { hooks: Record<string, { hooks: Record<string, unknown>[] }[]> };
    expect(after.theme).toBe("GitHub");
    expect(after.hooks.BeforeTool).toEqual(theirs.hooks.BeforeTool);
    expect(after.hooks.BeforeAgent).toEqual([
      { hooks: [{ type: "command", name: "memd", command: "/bin/sh /opt/memd/hooks/memd-hook.sh before-agent /usr/bin/node /opt/memd/dist/hooks/src/main.js gemini", timeout: 5000 }] },
    ]);
    expect(after.hooks.SessionStart?.[0]?.hooks[0]).toMatchObject({ timeout: 10_000 });
    expect(after.hooks.AfterTool).toEqual([
      { matcher: "^run_shell_command$", hooks: [{ type: "command", name: "memd", command: "/bin/sh /opt/memd/hooks/memd-hook.sh after-tool /usr/bin/node /opt/memd/dist/hooks/src/main.js gemini", timeout: 5000 }] },
    ]);
    // No PreCompress: Gemini CLI fires it before every turn (test/agents/gemini-cli.test.ts).
    expect(Object.keys(after.hooks).sort()).toEqual(["AfterTool", "BeforeAgent", "BeforeTool", "SessionEnd", "SessionStart"]);
    expect(isMemdHook(after.hooks.BeforeAgent?.[0]?.hooks[0])).toBe(true);
    expect(change.target).toBe("gemini");
    expect(changeKind(planGeminiHooks(FILE, change.after, paths, undefined))).toBe("unchanged");
    expect(JSON.parse(planGeminiHooksRemoval(FILE, change.after, paths.hook).after ?? "")).toEqual(theirs);
  });

  it("takes out the PreCompress hook an earlier setup wrote", () => {
    const earlier = { ...theirs, hooks: { ...theirs.hooks, PreCompress: [{ hooks: [{ type: "command", name: "memd", command: "/bin/sh /opt/memd/hooks/memd-hook.sh pre-compress /usr/bin/node /opt/memd/dist/hooks/src/main.js gemini", timeout: 10000 }] }] } };
    const change = planGeminiHooks(FILE, JSON.stringify(earlier, null, 2), paths, undefined);
    expect(change.summary).toContain("remove memd hooks: PreCompress");
    expect(Object.keys((JSON.parse(change.after ?? "") as { hooks: object }).hooks)).not.toContain("PreCompress");
  });
});
