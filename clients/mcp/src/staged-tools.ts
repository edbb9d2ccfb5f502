import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { MemoryStatus } from "../../../gen/memd/v1/memory_pb.js";
import { memoryLine, required } from "./format.js";
import { idField, projectField } from "./input-fields.js";
import type { ToolContext } from "./tool-context.js";
import { runTool } from "./tool-result.js";

/** The promotion gate: inferred (distilled) memories wait, staged, until someone confirms them. */
export function registerStagedTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "memory_staged",
    {
      title: "List staged memories",
      description:
        "List staged memories: inferred, unconfirmed guesses that search does not show yet. Show them to the user when " +
        "they ask what memd has guessed, then promote the ones they confirm (memory_promote) and reject the wrong ones (memory_reject).",
      inputSchema: {
        project: projectField.optional().describe("Only this project (default: every project)"),
        limit: z.number().int().min(1).max(1000).optional().describe("At most this many (default 50)"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).memory.list({
          project: args.project,
          statuses: [MemoryStatus.STAGED],
          pageSize: args.limit ?? 50,
        });
        if (res.memories.length === 0) return "nothing is staged";
        const more = res.nextPageToken ? "\n(more are staged: raise limit)" : "";
        return `${res.memories.length} staged:\n${res.memories.map((m) => memoryLine(m)).join("\n")}${more}`;
      }),
  );

  server.registerTool(
    "memory_promote",
    {
      title: "Confirm a staged memory",
      description: "Make a staged memory active because the user confirmed it is right; it then shows in search.",
      inputSchema: { id: idField },
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => `promoted ${memoryLine(required((await (await ctx.link.clients()).memory.promote({ id: args.id })).memory))}`),
  );

  server.registerTool(
    "memory_reject",
    {
      title: "Reject a staged memory",
      description: "Archive a staged memory because the user said it is wrong (it is kept for history, never deleted).",
      inputSchema: {
        id: idField,
        reason: z.string().optional().describe("Why it is wrong"),
      },
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).memory.reject({ id: args.id, reason: args.reason });
        return `rejected ${memoryLine(required(res.memory))}`;
      }),
  );
}
