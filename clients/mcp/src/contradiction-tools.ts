import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { ContradictionResolution } from "../../../gen/memd/v1/contradiction_pb.js";
import { memoryLine } from "./format.js";
import { projectField, sessionField } from "./input-fields.js";
import { contradictionLine } from "./contradiction-text.js";
import type { ToolContext } from "./tool-context.js";
import { runTool } from "./tool-result.js";

const KEEP = { newer: ContradictionResolution.KEPT_NEWER, older: ContradictionResolution.KEPT_OLDER, both: ContradictionResolution.COMPATIBLE } as const;

/** The queue of contradictions found on write: list it, and settle a pair. */
export function registerContradictionTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "memory_contradictions",
    {
      title: "List open contradictions",
      description:
        "List pairs of memories that say different things about the same subject, found when the newer one was saved. " +
        "Show them to the user and settle each with memory_settle once they say which holds.",
      inputSchema: {
        project: projectField.optional().describe("Only this project and global (default: every project)"),
        limit: z.number().int().min(1).max(500).optional().describe("At most this many (default 20)"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).contradictions.listContradictions({ project: args.project, pageSize: args.limit ?? 20 });
        if (res.contradictions.length === 0) return "no open contradictions";
        const lines = res.contradictions.map((c) => `${c.memory ? memoryLine(c.memory) : "(gone)"}\n  ${contradictionLine(c)}`);
        return `${res.openCount} open:\n${lines.join("\n")}`;
      }),
  );

  server.registerTool(
    "memory_settle",
    {
      title: "Settle a contradiction",
      description:
        'Say which memory of a contradiction holds: "newer" supersedes the older memory with the newer one, "older" supersedes ' +
        'the newer one with the older, "both" records that they do not contradict (never asked again). Nothing is deleted; ' +
        "memory_history shows the link.",
      inputSchema: {
        id: z.number().int().min(1).describe("The contradiction's id, from memory_save's answer or memory_contradictions"),
        keep: z.enum(["newer", "older", "both"]).describe("Which memory holds"),
        session_id: sessionField.optional(),
      },
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).contradictions.settleContradiction({
          id: args.id,
          resolution: KEEP[args.keep],
          sessionId: args.session_id ?? ctx.sessionId,
        });
        if (!res.superseded) return `contradiction ${args.id} settled: both hold, and the pair is not asked about again`;
        return `contradiction ${args.id} settled: superseded ${memoryLine(res.superseded)}`;
      }),
  );
}
