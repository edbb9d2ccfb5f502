import { describe, expect, it } from "vitest";
import type { InstallPaths } from "./locations.js";
import { claudeMcpEntry, cursorMcpEntry, mergeMcpEntry, planMcpServer } from "./mcp-json.js";
import { changeKind, SetupError } from "./file-change.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };
const FILE = "/home/maya/.claude.json";

const state = {
  numStartups: 41,
  projects: { "/home/maya/code/acme-api": { allowedTools: [], mcpServers: {} } },
  mcpServers: { memory: { type: "stdio", command: "node", args: ["/ltm/mcp-server.js"], env: {} } },
  oauthAccount: { emailAddress: "maya@example.com" },
};
const stateText = `${JSON.stringify(state, null, 2)}\n`;

describe("MCP server entries", () => {
  it("adds memd to ~/.claude.json's top-level mcpServers and keeps every other key in its place", () => {
    const change = planMcpServer("claude", FILE, stateText, claudeMcpEntry(paths, undefined), 0o600);
    const after = JSON.parse(change.after ?? "") as typeof state & { mcpServers: Record<string, unknown> };
    expect(Object.keys(after)).toEqual(Object.keys(state));
    expect(after.projects).toEqual(state.projects);
    expect(after.mcpServers).toEqual({ ...state.mcpServers, memd: { type: "stdio", command: "/usr/bin/node", args: [paths.mcp], env: {} } });
    expect(change.summary).toEqual([`add mcpServers.memd (stdio: /usr/bin/node ${paths.mcp})`]);
    expect(changeKind(planMcpServer("claude", FILE, change.after, claudeMcpEntry(paths, undefined), 0o600))).toBe("unchanged");
  });

  it("passes MEMD_HOME only when the user chose one", () => {
    expect(claudeMcpEntry(paths, "/data/memd").env).toEqual({ MEMD_HOME: "/data/memd" });
    expect(cursorMcpEntry(paths, undefined)).toEqual({ command: "/usr/bin/node", args: [paths.mcp] });
    expect(cursorMcpEntry(paths, "/data/memd")).toEqual({ command: "/usr/bin/node", args: [paths.mcp], env: { MEMD_HOME: "/data/memd" } });
  });

  it("updates a stale memd entry and removes it on uninstall, restoring the file", () => {
    const installed = planMcpServer("cursor", "/h/.cursor/mcp.json", stateText, cursorMcpEntry(paths, undefined), 0o644).after;
    const moved = planMcpServer("cursor", "/h/.cursor/mcp.json", installed, cursorMcpEntry({ ...paths, mcp: "/new/main.js" }, undefined), 0o644);
    expect(moved.summary).toEqual(["update mcpServers.memd (stdio: /usr/bin/node /new/main.js)"]);
    const removed = planMcpServer("cursor", "/h/.cursor/mcp.json", moved.after, undefined, 0o644);
    expect(removed.after).toBe(stateText);
    expect(removed.summary).toEqual(["remove mcpServers.memd"]);
  });

  it("updates only memd's keys in an existing entry, keeping the user's own keys and env variables", () => {
    const mine = { command: "node", args: ["/old/memd-mcp.mjs"], disabled: false, timeout: 30000, env: { DEBUG: "memd", MEMD_HOME: "/old" } };
    const text = `${JSON.stringify({ mcpServers: { memd: mine } }, null, 2)}\n`;
    const change = planMcpServer("cursor", "/h/.cursor/mcp.json", text, cursorMcpEntry(paths, "/data/memd"), 0o644);
    const memd = (JSON.parse(change.after ?? "") as { mcpServers: { memd: unknown } }).mcpServers.memd;
    expect(memd).toEqual({ command: "/usr/bin/node", args: [paths.mcp], disabled: false, timeout: 30000, env: { DEBUG: "memd", MEMD_HOME: "/data/memd" } });
    expect(change.summary).toEqual([`update mcpServers.memd (stdio: /usr/bin/node ${paths.mcp})`]);
    expect(changeKind(planMcpServer("cursor", "/h/.cursor/mcp.json", change.after, cursorMcpEntry(paths, "/data/memd"), 0o644))).toBe("unchanged");
    expect(planMcpServer("cursor", "/h/.cursor/mcp.json", change.after, undefined, 0o644).after).toBeNull();
  });

  it("takes MEMD_HOME out when no home is chosen, and the env with it when memd put it there", () => {
    expect(mergeMcpEntry({ command: "x", env: { DEBUG: "1", MEMD_HOME: "/old" } }, cursorMcpEntry(paths, undefined))).toEqual({ command: "/usr/bin/node", args: [paths.mcp], env: { DEBUG: "1" } });
    expect(mergeMcpEntry(cursorMcpEntry(paths, "/old"), cursorMcpEntry(paths, undefined))).toEqual(cursorMcpEntry(paths, undefined));
    expect(mergeMcpEntry(claudeMcpEntry(paths, "/old"), claudeMcpEntry(paths, undefined))).toEqual(claudeMcpEntry(paths, undefined));
    expect(mergeMcpEntry({ type: "stdio", command: "x", env: {} }, cursorMcpEntry(paths, undefined))).toEqual({ type: "stdio", command: "/usr/bin/node", args: [paths.mcp], env: {} });
  });

  it("removes a file that only held memd's server, and only the mcpServers object where other keys remain", () => {
    const installed = planMcpServer("cursor", "/h/mcp.json", null, cursorMcpEntry(paths, undefined), 0o644);
    expect(changeKind(installed)).toBe("create");
    expect(changeKind(planMcpServer("cursor", "/h/mcp.json", installed.after, undefined, 0o644))).toBe("delete");
    const shared = planMcpServer("cursor", "/h/mcp.json", '{"theme": "dark"}\n', cursorMcpEntry(paths, undefined), 0o644);
    expect(planMcpServer("cursor", "/h/mcp.json", shared.after, undefined, 0o644).after).toBe('{"theme":"dark"}\n');
  });

  it("writes OpenCode's shape: servers under mcp, their variables in environment", () => {
    const shape = { root: "mcp", envKey: "environment" };
    const entry = { type: "local", command: ["/usr/bin/node", paths.mcp], environment: { MEMD_HOME: "/data/memd" } };
    const change = planMcpServer("opencode", "/h/opencode.json", '{"mcp": {"memd": {"type": "local", "command": ["x"], "enabled": false, "environment": {"DEBUG": "1"}}}}', entry, 0o644, shape);
    expect(JSON.parse(change.after ?? "")).toEqual({ mcp: { memd: { type: "local", command: ["/usr/bin/node", paths.mcp], enabled: false, environment: { DEBUG: "1", MEMD_HOME: "/data/memd" } } } });
    expect(change.summary).toEqual([`update mcp.memd (stdio: /usr/bin/node ${paths.mcp})`]);
  });

  it("refuses a file that is not a JSON object, naming it", () => {
    expect(() => planMcpServer("claude", FILE, "[1]", claudeMcpEntry(paths, undefined), 0o600)).toThrow(SetupError);
    expect(() => planMcpServer("claude", FILE, '{"mcpServers": 3}', claudeMcpEntry(paths, undefined), 0o600)).toThrow(`${FILE}: "mcpServers" is not an object`);
  });
});
