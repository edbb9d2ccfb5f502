import { describe, expect, it } from "vitest";
import { hookCommand, isMemdHook, MEMD_HOOKS, planClaudeHooks, planClaudeHooksRemoval } from "./claude-settings.js";
import type { InstallPaths } from "./locations.js";
import { changeKind, SetupError } from "./file-change.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };
const FILE = "/home/maya/.claude/settings.json";

const userSettings = {
  $schema: "https://json.schemastore.org/claude-code-settings.json",
  model: "opus",
  hooks: {
    SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "ltm hook session-start", timeout: 10 }] }],
    Stop: [{ hooks: [{ type: "command", command: "ltm hook stop", timeout: 30 }] }],
  },
};
const userText = `${JSON.stringify(userSettings, null, 2)}\n`;

type Groups = { matcher?: string; hooks: { command: string; timeout: number; async?: boolean }[] }[];

function hooksOf(text: string | null): Record<string, Groups> {
  return (JSON.parse(text ?? "{}") as { hooks: Record<string, Groups> }).hooks;
}

describe("Claude Code hooks", () => {
  it("adds one memd group per event, with matchers and timeouts, none async, and keeps the user's hooks and keys", () => {
    const change = planClaudeHooks(FILE, userText, paths, undefined);
    const after = JSON.parse(change.after ?? "") as typeof userSettings;
    expect(after.model).toBe("opus");
    expect(after.$schema).toBe(userSettings.$schema);
    const hooks = hooksOf(change.after);
    expect(hooks.Stop).toEqual(userSettings.hooks.Stop);
    expect(hooks.SessionStart?.[0]).toEqual(userSettings.hooks.SessionStart[0]);
    expect(hooks.SessionStart?.[1]).toEqual({ hooks: [{ type: "command", command: "/bin/sh /opt/memd/hooks/memd-hook.sh session-start /usr/bin/node /opt/memd/dist/hooks/src/main.js", timeout: 10 }] });
    expect(hooks.PostToolUse?.[0]).toMatchObject({ matcher: "Write|Edit", hooks: [{ timeout: 5 }] });
    expect(hooks.PostToolUseFailure?.[0]).toMatchObject({ matcher: "Bash", hooks: [{ timeout: 5 }] });
    // `claude -p` kills async hooks still running when it exits: a session's last save was lost.
    expect(Object.values(hooks).flat().flatMap((group) => group.hooks).some((handler) => handler.async !== undefined)).toBe(false);
    expect(Object.keys(hooks)).toEqual(["SessionStart", "Stop", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact", "SessionEnd"]);
    expect(change.summary).toEqual([`add hooks: ${MEMD_HOOKS.map((h) => h.event).join(", ")}`]);
    expect(change.backup).toBe(true);
  });

  it("changes nothing the second time", () => {
    const first = planClaudeHooks(FILE, userText, paths, undefined);
    const second = planClaudeHooks(FILE, first.after, paths, undefined);
    expect(changeKind(second)).toBe("unchanged");
    expect(second.summary).toEqual([]);
  });

  it("updates memd's hooks in place when the install moved, leaving hooks the user added after them where they are", () => {
    const first = JSON.parse(planClaudeHooks(FILE, userText, paths, undefined).after ?? "") as { hooks: Record<string, Groups> };
    first.hooks.SessionStart?.push({ hooks: [{ command: "later-user-hook", timeout: 3 }] });
    const moved = { ...paths, node: "/opt/node 22/bin/node", hook: "/usr/lib/node_modules/memd/dist/hooks/src/main.js", shim: "/usr/lib/node_modules/memd/hooks/memd-hook.sh" };
    const change = planClaudeHooks(FILE, JSON.stringify(first, null, 2), moved, undefined);
    expect(change.summary).toEqual([`update hooks: ${MEMD_HOOKS.map((h) => h.event).join(", ")}`]);
    const session = hooksOf(change.after).SessionStart ?? [];
    expect(session.map((g) => g.hooks[0]?.command)).toEqual([
      "ltm hook session-start",
      "/bin/sh /usr/lib/node_modules/memd/hooks/memd-hook.sh session-start '/opt/node 22/bin/node' /usr/lib/node_modules/memd/dist/hooks/src/main.js",
      "later-user-hook",
    ]);
  });

  it("takes memd's handler out of a group it shares with a user's handler", () => {
    const shared = { hooks: { PreCompact: [{ hooks: [{ type: "command", command: "mine" }, { type: "command", command: "memd-hook pre-compact" }] }] } };
    const hooks = hooksOf(planClaudeHooks(FILE, JSON.stringify(shared), paths, undefined).after);
    expect(hooks.PreCompact).toEqual([
      { hooks: [{ type: "command", command: "mine" }] },
      { hooks: [{ type: "command", command: "/bin/sh /opt/memd/hooks/memd-hook.sh pre-compact /usr/bin/node /opt/memd/dist/hooks/src/main.js", timeout: 10 }] },
    ]);
  });

  it("puts MEMD_HOME in front of the command when the user chose one", () => {
    expect(hookCommand(paths, "session-end", "/data/it's memd")).toBe("MEMD_HOME='/data/it'\\''s memd' /bin/sh /opt/memd/hooks/memd-hook.sh session-end /usr/bin/node /opt/memd/dist/hooks/src/main.js");
  });

  it("recognises memd-hook by name and the memd package's hook script, in shell and exec form, and nothing else", () => {
    expect(isMemdHook({ type: "command", command: "memd-hook session-start" })).toBe(true);
    expect(isMemdHook({ type: "command", command: "/usr/local/bin/memd-hook SessionStart" })).toBe(true);
    expect(isMemdHook({ type: "command", command: "'/a b/node' '/x y/memd/dist/hooks/src/main.js' user-prompt-submit" })).toBe(true);
    expect(isMemdHook({ type: "command", command: "MEMD_HOME=/m /n /usr/lib/node_modules/memd/dist/hooks/src/main.js SessionEnd" })).toBe(true);
    expect(isMemdHook({ type: "command", command: "node", args: ["/old/memd/dist/hooks/src/main.js", "pre-compact"] })).toBe(true);
    expect(isMemdHook({ type: "command", command: "/bin/sh '/x y/memd/hooks/memd-hook.sh' session-start /n /a/dist/hooks/src/main.js" })).toBe(true);
    expect(isMemdHook({ type: "command", command: "/bin/sh /opt/tool/hooks/memd-hook.sh.bak session-start" })).toBe(false);
    expect(isMemdHook({ type: "command", command: "ltm hook session-start" })).toBe(false);
    expect(isMemdHook({ type: "command", command: "node /other/dist/hooks/src/main.js lint" })).toBe(false);
    expect(isMemdHook({ type: "prompt", prompt: "memd-hook" })).toBe(false);
  });

  it("does not take another tool's hook script with the same layout for memd's", () => {
    expect(isMemdHook({ type: "command", command: "node /home/maya/.local/lib/othertool/dist/hooks/src/main.js session-start" })).toBe(false);
    expect(isMemdHook({ type: "command", command: "node /opt/not-memd/dist/hooks/src/main.js SessionEnd" })).toBe(false);
    expect(isMemdHook({ type: "command", command: "node", args: ["/srv/tools/dist/hooks/src/main.js", "pre-compact"] })).toBe(false);
  });

  it("recognises this installation's hook script by its exact path, whatever its directory is called", () => {
    const installed = "/home/maya/src/checkout/dist/hooks/src/main.js";
    expect(isMemdHook({ type: "command", command: `/usr/bin/node ${installed} session-start` })).toBe(false);
    expect(isMemdHook({ type: "command", command: `/usr/bin/node ${installed} session-start` }, installed)).toBe(true);
    expect(isMemdHook({ type: "command", command: "node '/x y/dist/hooks/src/main.js' pre-compact" }, "/x y/dist/hooks/src/main.js")).toBe(true);
    expect(isMemdHook({ type: "command", command: "node", args: [installed, "pre-compact"] }, installed)).toBe(true);
    expect(isMemdHook({ type: "command", command: `/usr/bin/node ${installed}.bak session-start` }, installed)).toBe(false);
  });

  it("keeps a look-alike hook of another tool through setup and uninstall", () => {
    const lookAlike = { type: "command", command: "node /home/maya/.local/lib/othertool/dist/hooks/src/main.js session-start", timeout: 5 };
    const settings = { hooks: { SessionStart: [{ hooks: [lookAlike] }], SessionEnd: [{ hooks: [{ ...lookAlike, command: "node /opt/tool/dist/hooks/src/main.js session-end" }] }] } };
    const installed = planClaudeHooks(FILE, JSON.stringify(settings), paths, undefined);
    expect(hooksOf(installed.after).SessionStart?.[0]).toEqual({ hooks: [lookAlike] });
    expect(hooksOf(installed.after).SessionStart).toHaveLength(2);
    expect(JSON.parse(planClaudeHooksRemoval(FILE, installed.after, paths.hook).after ?? "")).toEqual(settings);
  });

  it("updates and removes hooks that run this installation from a directory not named memd", () => {
    const checkout = { ...paths, hook: "/home/maya/src/checkout/dist/hooks/src/main.js", shim: "/home/maya/src/checkout/hooks/memd-hook.sh" };
    const installed = planClaudeHooks(FILE, null, checkout, undefined).after;
    expect(changeKind(planClaudeHooks(FILE, installed, checkout, undefined))).toBe("unchanged");
    // The file setup created held only memd's hooks: uninstall removes it.
    expect(planClaudeHooksRemoval(FILE, installed, checkout.hook).after).toBeNull();
  });

  it("briefs on every SessionStart source and keeps SessionEnd within 2 s", () => {
    const hooks = hooksOf(planClaudeHooks(FILE, null, paths, undefined).after);
    expect(hooks.SessionStart?.[0]?.matcher).toBeUndefined();
    expect(hooks.SessionEnd?.[0]?.hooks[0]?.timeout).toBe(2);
    const old = { hooks: { SessionStart: [{ matcher: "startup|resume|clear|compact", hooks: [{ type: "command", command: "/usr/bin/node /opt/memd/dist/hooks/src/main.js session-start", timeout: 10 }] }] } };
    const change = planClaudeHooks(FILE, JSON.stringify(old), paths, undefined);
    expect(change.summary).toContain("update hooks: SessionStart");
    expect(hooksOf(change.after).SessionStart).toEqual([{ hooks: [{ type: "command", command: hookCommand(paths, "session-start", undefined), timeout: 10 }] }]);
  });

  it("uninstall removes only memd's hooks and restores the user's settings", () => {
    const installed = planClaudeHooks(FILE, userText, paths, undefined).after;
    const removed = planClaudeHooksRemoval(FILE, installed);
    expect(JSON.parse(removed.after ?? "")).toEqual(userSettings);
    expect(removed.summary).toEqual([`remove memd hooks: ${MEMD_HOOKS.map((h) => h.event).join(", ")}`]);
  });

  it("uninstall drops the hooks key it emptied (and the file, when nothing else is left), and does nothing without a file", () => {
    const installed = planClaudeHooks(FILE, null, paths, undefined);
    expect(changeKind(installed)).toBe("create");
    expect(planClaudeHooksRemoval(FILE, installed.after)).toMatchObject({ after: null, summary: ["remove memd hooks: SessionStart, UserPromptSubmit, PostToolUse, PostToolUseFailure, PreCompact, SessionEnd", "remove the file, which held only memd's hooks"] });
    const withModel = planClaudeHooks(FILE, '{"model": "opus"}\n', paths, undefined);
    expect(planClaudeHooksRemoval(FILE, withModel.after).after).toBe('{"model":"opus"}\n');
    expect(changeKind(planClaudeHooksRemoval(FILE, null))).toBe("unchanged");
  });

  it("setup removes memd hooks on events memd no longer registers", () => {
    const old = { hooks: { Stop: [{ hooks: [{ type: "command", command: "memd-hook stop" }] }] } };
    const change = planClaudeHooks(FILE, JSON.stringify(old), paths, undefined);
    expect(hooksOf(change.after).Stop).toBeUndefined();
    expect(change.summary).toContain("remove memd hooks: Stop");
  });

  it("keeps the file's own indentation", () => {
    const tabbed = `{\n\t"model": "opus"\n}\n`;
    expect(planClaudeHooks(FILE, tabbed, paths, undefined).after).toMatch(/^\{\n\t"model": "opus",\n\t"hooks": \{\n\t\t"SessionStart"/);
  });

  it("refuses invalid JSON and hooks that are not an object, naming the file", () => {
    expect(() => planClaudeHooks(FILE, "{ nope", paths, undefined)).toThrow(SetupError);
    expect(() => planClaudeHooks(FILE, "{ nope", paths, undefined)).toThrow(FILE);
    expect(() => planClaudeHooks(FILE, '{"hooks": []}', paths, undefined)).toThrow(/"hooks" is not an object/);
    expect(() => planClaudeHooks(FILE, '{"hooks": {"Stop": {}}}', paths, undefined)).toThrow(/hooks.Stop is not a list/);
  });

  it("writes http hooks on the daemon's route where Claude Code takes them, the curl shim for SessionStart, and takes them out again", () => {
    const http = { port: 41234, token: "t".repeat(64) };
    const installed = planClaudeHooks(FILE, userText, paths, undefined, http).after;
    const hooks = hooksOf(installed) as unknown as Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;
    expect(hooks.UserPromptSubmit?.[0]).toEqual({
      hooks: [{ type: "http", url: "http://127.0.0.1:41234/hooks/claude-code/UserPromptSubmit", headers: { Authorization: `Bearer ${http.token}` }, timeout: 5 }],
    });
    expect(hooks.PostToolUseFailure?.[0]).toMatchObject({ matcher: "Bash", hooks: [{ type: "http", url: "http://127.0.0.1:41234/hooks/claude-code/PostToolUseFailure" }] });
    expect(hooks.SessionStart?.[1]?.hooks[0]).toMatchObject({ type: "command", command: hookCommand(paths, "session-start", undefined) });
    expect(changeKind(planClaudeHooks(FILE, installed, paths, undefined, http))).toBe("unchanged");
    // Moving to command hooks (no login service any more) replaces them in place.
    expect(hooksOf(planClaudeHooks(FILE, installed, paths, undefined).after).UserPromptSubmit?.[0]?.hooks[0]?.command).toBe(hookCommand(paths, "user-prompt-submit", undefined));
    expect(JSON.parse(planClaudeHooksRemoval(FILE, installed).after ?? "")).toEqual(userSettings);
    expect(isMemdHook({ type: "http", url: "http://127.0.0.1:8080/hooks/pre-tool-use" })).toBe(false);
  });
});
