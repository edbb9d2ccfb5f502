import { formatJsonLike, isJsonObject, type JsonObject, parseJsonObject } from "./json-file.js";
import type { InstallPaths } from "./locations.js";
import { type FileChange, SetupError } from "./plan.js";

export const MCP_SERVER_NAME = "memd";

/** Claude Code's user-scope entry (top-level mcpServers in ~/.claude.json). */
export function claudeMcpEntry(paths: InstallPaths, memdHome: string | undefined): JsonObject {
  return { type: "stdio", command: paths.node, args: [paths.mcp], env: memdHome === undefined ? {} : { MEMD_HOME: memdHome } };
}

/** Cursor's entry in ~/.cursor/mcp.json, and Gemini CLI's in ~/.gemini/settings.json (the same shape). */
export function cursorMcpEntry(paths: InstallPaths, memdHome: string | undefined): JsonObject {
  const entry: JsonObject = { command: paths.node, args: [paths.mcp] };
  if (memdHome !== undefined) entry.env = { MEMD_HOME: memdHome };
  return entry;
}

/**
 * Copilot CLI's entry in ~/.copilot/mcp-config.json (github/docs, "Add MCP servers to Copilot
 * CLI"): a local server with every tool allowed. `tools` is written only into a new entry, so a
 * user's narrower list stays.
 */
export function copilotMcpEntry(paths: InstallPaths, memdHome: string | undefined): JsonObject {
  return { type: "local", ...cursorMcpEntry(paths, memdHome), tools: ["*"] };
}

/**
 * memd's entry over the one already there: the keys memd writes (type, command, args and env's
 * MEMD_HOME) from `desired`, every other key and env variable of the user's as it was. MEMD_HOME
 * is memd's whether set or not: an entry left pointing at another home would talk to another
 * daemon than the hooks do.
 */
export function mergeMcpEntry(existing: unknown, desired: JsonObject): JsonObject {
  if (!isJsonObject(existing)) return desired;
  const merged: JsonObject = { ...existing };
  for (const key of ["type", "command", "args"]) if (key in desired) merged[key] = desired[key];
  const desiredEnv = isJsonObject(desired.env) ? desired.env : undefined;
  if (!isJsonObject(existing.env)) {
    if (desiredEnv !== undefined) merged.env = desiredEnv;
    return merged;
  }
  const { MEMD_HOME: oldHome, ...userEnv } = existing.env;
  const env = desiredEnv?.MEMD_HOME === undefined ? userEnv : { ...userEnv, MEMD_HOME: desiredEnv.MEMD_HOME };
  // An env that held only the MEMD_HOME setup wrote goes with it where a fresh entry has none.
  if (Object.keys(env).length === 0 && oldHome !== undefined && desiredEnv === undefined) delete merged.env;
  else merged.env = env;
  return merged;
}

/**
 * The file with memd's mcpServers.memd merged from `entry` (or removed whole when entry is
 * undefined) and every other key as it was, in its place.
 */
export function planMcpServer(target: "claude" | "cursor" | "gemini" | "copilot", file: string, before: string | null, entry: JsonObject | undefined, mode: number): FileChange {
  const config = parseJsonObject(file, before);
  if (config.mcpServers !== undefined && !isJsonObject(config.mcpServers)) {
    throw new SetupError(`${file}: "mcpServers" is not an object; fix it and run again. Nothing was changed.`);
  }
  const servers: JsonObject = { ...(config.mcpServers ?? {}) };
  const existing = servers[MCP_SERVER_NAME];
  const next: JsonObject = { ...config };
  let summary: string[] = [];
  if (entry !== undefined) {
    const merged = mergeMcpEntry(existing, entry);
    servers[MCP_SERVER_NAME] = merged;
    next.mcpServers = servers;
    if (existing === undefined) summary = [`add mcpServers.${MCP_SERVER_NAME} (stdio: ${describeEntry(merged)})`];
    else if (JSON.stringify(existing) !== JSON.stringify(merged)) summary = [`update mcpServers.${MCP_SERVER_NAME} (stdio: ${describeEntry(merged)})`];
  } else if (existing !== undefined) {
    delete servers[MCP_SERVER_NAME];
    if (Object.keys(servers).length > 0) next.mcpServers = servers;
    else delete next.mcpServers;
    summary = [`remove mcpServers.${MCP_SERVER_NAME}`];
  }
  // A file that held nothing but memd's server (setup created it) goes with it.
  const emptied = entry === undefined && existing !== undefined && Object.keys(next).length === 0;
  if (emptied) summary.push("remove the file, which held only memd's server");
  const after = (before === null && summary.length === 0) || emptied ? null : formatJsonLike(before, config, next);
  return { target, path: file, before, after, summary, backup: true, mode };
}

function describeEntry(entry: JsonObject): string {
  const args = Array.isArray(entry.args) ? entry.args : [];
  return [entry.command, ...args].map(String).join(" ");
}
