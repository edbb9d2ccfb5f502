import type { JsonObject } from "./json-file.js";
import { type InstallPaths, openCodePluginModule } from "./locations.js";
import { type McpFileShape, planMcpServer } from "./mcp-json.js";
import type { FileChange } from "./file-change.js";
import { planOwnedFile } from "./owned-file.js";

/**
 * memd in OpenCode (opencode.ai/docs: config, mcp-servers, plugins), all in its config folder
 * ($XDG_CONFIG_HOME/opencode, ~/.config/opencode): the MCP server in opencode.json (`mcp.memd`,
 * a local server whose `command` holds its arguments, its variables in `environment`), and a
 * plugin file of memd's own in plugins/, which OpenCode loads at start. OpenCode merges
 * config.json, opencode.json and opencode.jsonc from that folder, so memd's entry in
 * opencode.json never rewrites an opencode.jsonc with the user's comments.
 */
const OPENCODE_MCP: McpFileShape = { root: "mcp", envKey: "environment" };

/** The line that makes a plugin file memd's: setup rewrites and uninstall removes only a file that starts with it. */
const PLUGIN_MARKER = "// memd for OpenCode: written by memctl setup; memctl uninstall removes it.";

export function openCodeMcpEntry(paths: InstallPaths, memdHome: string | undefined): JsonObject {
  return { type: "local", command: [paths.node, paths.mcp], ...(memdHome === undefined ? {} : { environment: { MEMD_HOME: memdHome } }) };
}

/** opencode.json with memd's MCP server merged (setup, `entry` given) or taken out (uninstall). */
export function planOpenCodeConfig(file: string, before: string | null, entry: JsonObject | undefined): FileChange {
  return planMcpServer("opencode", file, before, entry, 0o644, OPENCODE_MCP);
}

/**
 * The plugin file: it imports memd's plugin from this installation (dist/hooks/src/opencode-plugin.js,
 * which does the work and fails open) and gives it MEMD_HOME when the user chose one. OpenCode
 * runs each function a plugin module exports.
 */
export function openCodePluginText(paths: InstallPaths, memdHome: string | undefined): string {
  const options = memdHome === undefined ? "" : JSON.stringify({ memdHome });
  return [PLUGIN_MARKER, `import { memdOpenCodePlugin } from ${JSON.stringify(openCodePluginModule(paths))};`, "", `export const MemdPlugin = memdOpenCodePlugin(${options});`, ""].join("\n");
}

/** The plugin file as setup wants it (`text`) or uninstall (null); a memd.js that memd did not write is the user's, and left alone. */
export function planOpenCodePlugin(file: string, before: string | null, text: string | null): FileChange {
  const ours = before === null || before.startsWith(PLUGIN_MARKER);
  return planOwnedFile({ target: "opencode", path: file, before, wanted: text }, ours, "memd's plugin", `is not memd's (it does not start with "${PLUGIN_MARKER}")`);
}
