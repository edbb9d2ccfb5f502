import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { codexTable, planCodexConfig, planCodexConfigRemoval, tomlString } from "./codex-toml.js";
import type { InstallPaths } from "./locations.js";
import { changeKind, SetupError } from "./plan.js";
import { classifyTomlLines } from "./toml-lines.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js" };
const FILE = "/home/maya/.codex/config.toml";

/** Parses TOML with Python's tomllib, the strict parser the tests trust. */
function parseToml(text: string): Record<string, unknown> {
  const script = "import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))";
  return JSON.parse(execFileSync("python3", ["-c", script], { input: text, encoding: "utf8" })) as Record<string, unknown>;
}

const USER_CONFIG = `# Maya's Codex config
model = "gpt-5"
notes = """
[mcp_servers.memd]
not a table: this is inside a string
"""

[mcp_servers.docs]
url = "https://mcp.example.com/mcp"   # remote
args = [
  ["nested"],
]

# the profile I use for reviews
[profiles.review]
model = "o3"
`;

describe("Codex config.toml", () => {
  it("appends [mcp_servers.memd] after the user's text, which stays byte for byte", () => {
    const change = planCodexConfig(FILE, USER_CONFIG, paths, undefined);
    expect(change.summary).toEqual(["add [mcp_servers.memd]"]);
    expect(change.after).toBe(`${USER_CONFIG}\n${codexTable(paths, undefined).join("\n")}\n`);
    const parsed = parseToml(change.after ?? "") as { mcp_servers: Record<string, unknown>; profiles: unknown; notes: string };
    expect(parsed.mcp_servers.memd).toEqual({ command: "/usr/bin/node", args: ["/opt/memd/dist/clients/mcp/src/main.js"], startup_timeout_sec: 20 });
    expect(parsed.mcp_servers.docs).toEqual({ url: "https://mcp.example.com/mcp", args: [["nested"]] });
    expect(parsed.profiles).toEqual({ review: { model: "o3" } });
    expect(parsed.notes).toContain("[mcp_servers.memd]");
  });

  it("writes MEMD_HOME as an inline env table when the user chose one", () => {
    const parsed = parseToml(planCodexConfig(FILE, null, paths, '/data/"memd"\\home').after ?? "") as { mcp_servers: { memd: { env: unknown } } };
    expect(parsed.mcp_servers.memd.env).toEqual({ MEMD_HOME: '/data/"memd"\\home' });
  });

  it("replaces an existing memd table and its subtables in place, keeping the comment above the next table", () => {
    const old = `model = "gpt-5"\n\n[mcp_servers.memd]\ncommand = "memd-mcp"\n\n[mcp_servers.memd.env]\nX = "1"\n\n# reviews\n[profiles.review]\nmodel = "o3"\n`;
    const change = planCodexConfig(FILE, old, paths, undefined);
    expect(change.summary).toEqual(["update [mcp_servers.memd] in place"]);
    expect(change.after).toBe(`model = "gpt-5"\n\n${codexTable(paths, undefined).join("\n")}\n\n# reviews\n[profiles.review]\nmodel = "o3"\n`);
    expect(changeKind(planCodexConfig(FILE, change.after, paths, undefined))).toBe("unchanged");
  });

  it("finds the memd table however its header is spelled, and a subtable far from it", () => {
    const old = `[ mcp_servers . "memd" ]  # memory\ncommand = "old"\n\n[other]\nx = 1\n\n['mcp_servers'.memd.env]\nY = "2"\n`;
    const change = planCodexConfig(FILE, old, paths, undefined);
    const parsed = parseToml(change.after ?? "") as { mcp_servers: { memd: Record<string, unknown> }; other: unknown };
    expect(parsed.mcp_servers.memd).toEqual({ command: "/usr/bin/node", args: ["/opt/memd/dist/clients/mcp/src/main.js"], startup_timeout_sec: 20 });
    expect(parsed.other).toEqual({ x: 1 });
  });

  it("uninstall restores the user's file exactly", () => {
    const installed = planCodexConfig(FILE, USER_CONFIG, paths, undefined).after;
    const removed = planCodexConfigRemoval(FILE, installed);
    expect(removed.after).toBe(USER_CONFIG);
    expect(removed.summary).toEqual(["remove [mcp_servers.memd]"]);
    expect(planCodexConfigRemoval(FILE, planCodexConfig(FILE, null, paths, undefined).after).after).toBe("");
  });

  it("uninstall removes a memd table at the top of the file without leaving a blank first line", () => {
    const text = `[mcp_servers.memd]\ncommand = "x"\n\n[profiles.a]\nmodel = "m"\n`;
    expect(planCodexConfigRemoval(FILE, text).after).toBe(`[profiles.a]\nmodel = "m"\n`);
  });

  it("keeps Windows line endings", () => {
    const change = planCodexConfig(FILE, 'model = "gpt-5"\r\n', paths, undefined);
    expect(change.after).toBe(`model = "gpt-5"\r\n\r\n${codexTable(paths, undefined).join("\r\n")}\r\n`);
  });

  it("refuses a memd server written inline, which a table would duplicate", () => {
    expect(() => planCodexConfig(FILE, `[mcp_servers]\nmemd = { command = "x" }\n`, paths, undefined)).toThrow(SetupError);
    expect(() => planCodexConfig(FILE, `mcp_servers.memd.command = "x"\n`, paths, undefined)).toThrow(`${FILE}:1`);
    expect(() => planCodexConfig(FILE, `mcp_servers = { other = { command = "x" } }\n`, paths, undefined)).toThrow(/inline/);
  });

  it("escapes TOML strings", () => {
    expect(tomlString('a"b\\c\nd\u0001')).toBe('"a\\"b\\\\c\\nd\\u0001"');
  });
});

describe("TOML line classification", () => {
  it("tells headers from look-alikes inside multi-line strings and arrays", () => {
    const lines = ['a = """', "[not.a.header]", '"""', "b = [", '  ["x"],', "]", "[[fruits]]", "[real.'dotted.key'] # c"];
    expect(classifyTomlLines(lines).map((l) => l.kind)).toEqual(["pair", "continuation", "continuation", "pair", "continuation", "continuation", "header", "header"]);
    expect(classifyTomlLines(lines)[6]).toMatchObject({ keys: ["fruits"], arrayTable: true });
    expect(classifyTomlLines(lines)[7]).toMatchObject({ keys: ["real", "dotted.key"], arrayTable: false });
  });

  it("does not open a string or an array for quotes and brackets in comments or closed strings", () => {
    const lines = ['a = "[" # ]["', String.raw`b = 'C:\dir\'`, String.raw`c = "say \"[\""`, "[t]"];
    expect(classifyTomlLines(lines).map((l) => l.kind)).toEqual(["pair", "pair", "pair", "header"]);
  });
});
