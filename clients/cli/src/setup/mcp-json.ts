import { formatJsonLike, isJsonObject, type JsonObject, parseJsonObject } from "./json-file.js";
import type { InstallPaths } from "./locations.js";
import { type FileChange, SetupError } from "./plan.js";

export const MCP_SERVER_NAME = "memd";

/** Claude Code's user-scope entry (top-level mcpServers in ~/.claude.json). */
export function claudeMcpEntry(paths: InstallPaths, memdHome: string | undefined): JsonObject {
  return { type: "stdio", command: paths.node, args: [paths.mcp], env: memdHome === undefined ? {} : { MEMD_HOME: memdHome } };
}

/** Cursor's entry in ~/.cursor/mcp.json. */
export function cursorMcpEntry(paths: InstallPaths, memdHome: string | undefined): JsonObject {
  const entry: JsonObject = { command: paths.node, args: [paths.mcp] };
  if (memdHome !== undefined) entry.env = { MEMD_HOME: memdHome };
  return entry;
}

/**
 * The file with mcpServers.memd set to `entry` (or removed when entry is undefined) and every
 * other key as it was, in its place.
 */
export function planMcpServer(target: "claude" | "cursor", file: string, before: string | null, entry: JsonObject | undefined, mode: number): FileChange {
  const config = parseJsonObject(file, before);
  if (config.mcpServers !== undefined && !isJsonObject(config.mcpServers)) {
    throw new SetupError(`${file}: "mcpServers" is not an object; fix it and run again. Nothing was changed.`);
  }
  const servers: JsonObject = { ...(config.mcpServers ?? {}) };
  const existing = servers[MCP_SERVER_NAME];
  const next: JsonObject = { ...config };
  let summary: string[] = [];
  if (entry !== undefined) {
    servers[MCP_SERVER_NAME] = entry;
    next.mcpServers = servers;
    if (existing === undefined) summary = [`add mcpServers.${MCP_SERVER_NAME} (stdio: ${describeEntry(entry)})`];
    else if (JSON.stringify(existing) !== JSON.stringify(entry)) summary = [`update mcpServers.${MCP_SERVER_NAME} (stdio: ${describeEntry(entry)})`];
  } else if (existing !== undefined) {
    delete servers[MCP_SERVER_NAME];
    if (Object.keys(servers).length > 0) next.mcpServers = servers;
    else delete next.mcpServers;
    summary = [`remove mcpServers.${MCP_SERVER_NAME}`];
  }
  const after = before === null && summary.length === 0 ? null : formatJsonLike(before, config, next);
  return { target, path: file, before, after, summary, backup: true, mode };
}

function describeEntry(entry: JsonObject): string {
  const args = Array.isArray(entry.args) ? entry.args : [];
  return [entry.command, ...args].map(String).join(" ");
}
