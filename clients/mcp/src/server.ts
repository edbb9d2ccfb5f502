import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { registerAdminTools } from "./admin-tools.js";
import { registerContradictionTools } from "./contradiction-tools.js";
import { registerMemoryTools } from "./memory-tools.js";
import { registerMemoryFileTools } from "./memory-file-tools.js";
import { registerRecallTool } from "./recall-tool.js";
import { registerStagedTools } from "./staged-tools.js";
import type { ToolContext } from "./tool-context.js";

/** Sent at initialize, so it must not need the daemon; the daemon's own prompt is Instructions(MCP). */
const INSTRUCTIONS = `memd is your long-term memory across sessions.
- Call memory_sync once when a session starts. If a tool says memd is not running, call memory_start.
- Call memory_search before deciding how to do something, when the user refers to earlier work, and when an error looks familiar.
- Call memory_save at once when the user states a preference or rule, when a decision is made (with its reason), and when you learn a durable fact.
- Call memory_checkpoint when a task is finished.
- Correct with memory_supersede or memory_update; retire with memory_archive. Never save secrets.
- When a save or an update says it may contradict a memory, settle it with memory_settle (ask the user when unsure).`;

/**
 * The SDK validates what a user answers to an elicitation with this; memd never asks the user
 * anything, and the SDK's default (Ajv, which compiles its meta-schemas when constructed)
 * adds some 10 ms to every session's start.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error("memd-mcp does not ask the user for input, so it validates no elicitation answers");
  },
};

export interface MemdMcpOptions extends Omit<ToolContext, "agent"> {
  version: string;
}

/** The memd MCP server: every tool is a thin call to the daemon, and nothing here keeps state. */
export function createMemdMcpServer(options: MemdMcpOptions): McpServer {
  const server = new McpServer({ name: "memd", version: options.version }, { instructions: INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION });
  const ctx: ToolContext = { ...options, agent: () => server.server.getClientVersion()?.name ?? "" };
  registerAdminTools(server, ctx);
  registerRecallTool(server, ctx);
  registerMemoryTools(server, ctx);
  registerStagedTools(server, ctx);
  registerContradictionTools(server, ctx);
  registerMemoryFileTools(server, ctx);
  return server;
}
