import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { codexTable, planCodexConfig, planCodexConfigRemoval, tomlString } from "./codex-toml.js";
import type { InstallPaths } from "./locations.js";
import { changeKind, SetupError } from "./file-change.js";
import { classifyTomlLines } from "./toml-lines.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };
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

  it("updates memd's keys in place and keeps the user's keys, subtables and comments in memd's table", () => {
    const old = [
      'model = "gpt-5"',
      "",
      "[mcp_servers.memd]",
      "# memory, from memctl setup",
      'command = "memd-mcp"',
      "enabled = false",
      "startup_timeout_sec = 60   # slow disk",
      "tool_timeout_sec = 120",
      "",
      "[mcp_servers.memd.env]",
      'X = "1"',
      "",
      "[mcp_servers.memd.tools.memory_save]",
      'approval_mode = "approve"',
      "",
      "# reviews",
      "[profiles.review]",
      'model = "o3"',
      "",
    ].join("\n");
    const change = planCodexConfig(FILE, old, paths, undefined);
    expect(change.summary).toEqual(["update [mcp_servers.memd] in place"]);
    expect(change.after).toBe(
      old
        .replace('command = "memd-mcp"', `command = "/usr/bin/node"\nargs = ["/opt/memd/dist/clients/mcp/src/main.js"]`)
        .replace("startup_timeout_sec = 60   # slow disk", "startup_timeout_sec = 20   # slow disk"),
    );
    expect(parseToml(change.after ?? "")).toMatchObject({
      mcp_servers: {
        memd: {
          command: "/usr/bin/node",
          enabled: false,
          tool_timeout_sec: 120,
          env: { X: "1" },
          tools: { memory_save: { approval_mode: "approve" } },
        },
      },
    });
    expect(changeKind(planCodexConfig(FILE, change.after, paths, undefined))).toBe("unchanged");
  });

  it("a fresh table re-run after the user added keys changes nothing, and uninstall still removes the whole entry", () => {
    const installed = planCodexConfig(FILE, USER_CONFIG, paths, undefined).after ?? "";
    const edited = `${installed}enabled = false\n\n[mcp_servers.memd.tools.memory_save]\napproval_mode = "approve"\n`;
    expect(changeKind(planCodexConfig(FILE, edited, paths, undefined))).toBe("unchanged");
    expect(planCodexConfigRemoval(FILE, edited).after).toBe(USER_CONFIG);
  });

  it("adds the table before memd's subtables when only they exist", () => {
    const old = `[mcp_servers.memd.tools.memory_save]\napproval_mode = "approve"\n`;
    const change = planCodexConfig(FILE, old, paths, undefined);
    expect(change.summary).toEqual(["add [mcp_servers.memd]"]);
    expect(change.after).toBe(`${codexTable(paths, undefined).join("\n")}\n\n${old}`);
  });

  it("sets MEMD_HOME in the user's inline env, keeping their variables, and removes it when no home is chosen", () => {
    const old = `[mcp_servers.memd]\ncommand = "/usr/bin/node"\nenv = { RUST_LOG = "debug", MEMD_HOME = "/old" }  # mine\n`;
    const moved = planCodexConfig(FILE, old, paths, "/data/memd").after ?? "";
    expect(moved).toContain('\nenv = { RUST_LOG = "debug", MEMD_HOME = "/data/memd" }  # mine\n');
    expect(changeKind(planCodexConfig(FILE, moved, paths, "/data/memd"))).toBe("unchanged");
    const unset = planCodexConfig(FILE, moved, paths, undefined).after ?? "";
    expect(unset).toContain('\nenv = { RUST_LOG = "debug" }  # mine\n');
    expect(parseToml(unset)).toMatchObject({ mcp_servers: { memd: { env: { RUST_LOG: "debug" } } } });
  });

  it("drops memd's own env line when the home is no longer chosen", () => {
    const installed = planCodexConfig(FILE, null, paths, "/data/memd").after;
    expect(planCodexConfig(FILE, installed, paths, undefined).after).toBe(`${codexTable(paths, undefined).join("\n")}\n`);
  });

  it("sets MEMD_HOME in an [mcp_servers.memd.env] table or as a dotted key where the user keeps env that way", () => {
    const table = `[mcp_servers.memd]\ncommand = "x"\n\n[mcp_servers.memd.env]\nRUST_LOG = "debug"\n`;
    const inTable = planCodexConfig(FILE, table, paths, "/data/memd").after ?? "";
    expect(parseToml(inTable)).toMatchObject({ mcp_servers: { memd: { env: { RUST_LOG: "debug", MEMD_HOME: "/data/memd" } } } });
    expect(planCodexConfig(FILE, inTable, paths, undefined).after).toBe(planCodexConfig(FILE, table, paths, undefined).after);
    const dotted = `[mcp_servers.memd]\ncommand = "x"\nenv.RUST_LOG = "debug"\n`;
    const withHome = planCodexConfig(FILE, dotted, paths, "/data/memd").after ?? "";
    expect(withHome).toContain('\nenv.RUST_LOG = "debug"\nenv.MEMD_HOME = "/data/memd"\n');
    expect(parseToml(withHome)).toMatchObject({ mcp_servers: { memd: { env: { RUST_LOG: "debug", MEMD_HOME: "/data/memd" } } } });
  });

  it("refuses an env it cannot edit as one line, naming it", () => {
    const text = `[mcp_servers.memd]\ncommand = "x"\nenv = "not a table"\n`;
    expect(() => planCodexConfig(FILE, text, paths, "/h")).toThrow(`${FILE}:3`);
  });

  it("finds the memd table however its header is spelled, and a subtable far from it", () => {
    const old = `[ mcp_servers . "memd" ]  # memory\ncommand = "old"\n\n[other]\nx = 1\n\n['mcp_servers'.memd.env]\nY = "2"\n`;
    const change = planCodexConfig(FILE, old, paths, undefined);
    const parsed = parseToml(change.after ?? "") as { mcp_servers: { memd: Record<string, unknown> }; other: unknown };
    expect(parsed.mcp_servers.memd).toEqual({ command: "/usr/bin/node", args: ["/opt/memd/dist/clients/mcp/src/main.js"], startup_timeout_sec: 20, env: { Y: "2" } });
    expect(parsed.other).toEqual({ x: 1 });
  });

  it("uninstall restores the user's file exactly", () => {
    const installed = planCodexConfig(FILE, USER_CONFIG, paths, undefined).after;
    const removed = planCodexConfigRemoval(FILE, installed);
    expect(removed.after).toBe(USER_CONFIG);
    expect(removed.summary).toEqual(["remove [mcp_servers.memd]"]);
    // A config setup created held only memd's table: uninstall removes the file.
    expect(planCodexConfigRemoval(FILE, planCodexConfig(FILE, null, paths, undefined).after).after).toBeNull();
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
