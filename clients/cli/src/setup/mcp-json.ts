import { formatJsonLike, isJsonObject, type JsonObject, parseJsonObject } from "./json-file.js";
import type { InstallPaths } from "./locations.js";
import { type FileChange, SetupError, type SetupTarget } from "./file-change.js";

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
 * memd's entry over the one already there: the keys memd writes (type, command, args and the
 * environment's MEMD_HOME) from `desired`, every other key and variable of the user's as it was.
 * MEMD_HOME is memd's whether set or not: an entry left pointing at another home would talk to
 * another daemon than the hooks do. `envKey` names the environment: `env`, or OpenCode's `environment`.
 */
export function mergeMcpEntry(existing: unknown, desired: JsonObject, envKey = "env"): JsonObject {
  if (!isJsonObject(existing)) return desired;
  const merged: JsonObject = { ...existing };
  for (const key of ["type", "command", "args"]) if (key in desired) merged[key] = desired[key];
  const desiredEnv = isJsonObject(desired[envKey]) ? desired[envKey] : undefined;
  const existingEnv = existing[envKey];
  if (!isJsonObject(existingEnv)) {
    if (desiredEnv !== undefined) merged[envKey] = desiredEnv;
    return merged;
  }
  const { MEMD_HOME: oldHome, ...userEnv } = existingEnv;
  const env = desiredEnv?.MEMD_HOME === undefined ? userEnv : { ...userEnv, MEMD_HOME: desiredEnv.MEMD_HOME };
  // An environment that held only the MEMD_HOME setup wrote goes with it where a fresh entry has none.
  if (Object.keys(env).length === 0 && oldHome !== undefined && desiredEnv === undefined) delete merged[envKey];
  else merged[envKey] = env;
  return merged;
}

/** Where a config file keeps its MCP servers, and how an entry names its environment. */
export interface McpFileShape {
  /** The top-level key of the servers: `mcpServers`, or OpenCode's `mcp`. */
  root: string;
  envKey: string;
}
export const MCP_SERVERS: McpFileShape = { root: "mcpServers", envKey: "env" };

/**
 * The file with memd's entry (mcpServers.memd) merged from `entry` (or removed whole when entry
 * is undefined) and every other key as it was, in its place. A file that memd's entry alone
 * filled goes with it.
 */
export function planMcpServer(target: SetupTarget, file: string, before: string | null, entry: JsonObject | undefined, mode: number, shape = MCP_SERVERS): FileChange {
  const { root, envKey } = shape;
  const config = parseJsonObject(file, before);
  if (config[root] !== undefined && !isJsonObject(config[root])) {
    throw new SetupError(`${file}: "${root}" is not an object; fix it and run again. Nothing was changed.`);
  }
  const servers: JsonObject = { ...(config[root] as JsonObject | undefined) };
  const existing = servers[MCP_SERVER_NAME];
  const next: JsonObject = { ...config };
  let summary: string[] = [];
  if (entry !== undefined) {
    const merged = mergeMcpEntry(existing, entry, envKey);
    servers[MCP_SERVER_NAME] = merged;
    next[root] = servers;
    if (existing === undefined) summary = [`add ${root}.${MCP_SERVER_NAME} (stdio: ${describeEntry(merged)})`];
    else if (JSON.stringify(existing) !== JSON.stringify(merged)) summary = [`update ${root}.${MCP_SERVER_NAME} (stdio: ${describeEntry(merged)})`];
  } else if (existing !== undefined) {
    delete servers[MCP_SERVER_NAME];
    if (Object.keys(servers).length > 0) next[root] = servers;
    else delete next[root];
    summary = [`remove ${root}.${MCP_SERVER_NAME}`];
  }
  // A file that held nothing but memd's server (setup created it) goes with it.
  const emptied = entry === undefined && existing !== undefined && Object.keys(next).length === 0;
  if (emptied) summary.push("remove the file, which held only memd's server");
  const after = (before === null && summary.length === 0) || emptied ? null : formatJsonLike(before, config, next);
  return { target, path: file, before, after, summary, backup: true, mode };
}

/** The command line an entry runs (OpenCode's `command` holds the arguments too). */
function describeEntry(entry: JsonObject): string {
  const args = Array.isArray(entry.args) ? entry.args : [];
  return [entry.command, ...args].flat().map(String).join(" ");
}
