import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { MemoryKindSchema } from "../../../gen/memd/v1/memory_pb.js";
import type { RecallResponse, RecalledMemory } from "../../../gen/memd/v1/memory_service_pb.js";
import { enumName, enumValue } from "./enum-names.js";
import { memoryFull } from "./format.js";
import { kindField, projectField } from "./input-fields.js";
import type { ToolContext } from "./tool-context.js";
import { runTool, ToolFailure } from "./tool-result.js";

/** memory_search: the Recall RPC in its three depths. */
export function registerRecallTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "memory_search",
    {
      title: "Search memory",
      description:
        "Search long-term memory (this project plus global). Search BEFORE you decide how to do something, when the user " +
        "refers to earlier work (\"like last time\", \"as we agreed\", \"the usual way\"), when an error looks familiar, and " +
        "before asking the user something they may already have told you. Query with the identifiers you have: error codes, " +
        "ticket ids, file paths, commands, library names. depth 1 (default) returns one-line summaries; depth 2 returns full " +
        "memories (pass ids from a depth-1 answer to read just those); depth 3 also returns memories associated with the matches.",
      inputSchema: {
        query: z.string().optional().describe("What you are working on or looking for. Required unless ids are given"),
        depth: z.number().int().min(1).max(3).optional().describe("1 summaries (default), 2 full content, 3 full plus associated memories"),
        ids: z.array(z.string()).optional().describe("At depth 2: the ids chosen from a depth-1 answer, returned in full"),
        project: projectField.optional(),
        kinds: z.array(kindField).optional().describe("Only these kinds"),
        exclude_global: z.boolean().optional().describe("Leave out the user-wide global memories"),
        limit: z.number().int().min(1).max(50).optional().describe("At most this many memories (default 5)"),
        max_tokens: z.number().int().min(1).optional().describe("Approximate token budget for the returned text"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        if (!args.query?.trim() && !args.ids?.length) throw new ToolFailure("give a query (or ids from an earlier memory_search)");
        const ids = args.ids ?? [];
        const res = await (await ctx.link.clients()).memory.recall({
          query: args.query,
          // Ids only make sense at depth 2 or more; asking for them implies it.
          depth: args.depth ?? (ids.length > 0 ? 2 : 1),
          ids,
          project: args.project,
          cwd: ctx.cwd,
          kinds: args.kinds?.map((k) => enumValue(MemoryKindSchema, k) ?? 0),
          excludeGlobal: args.exclude_global,
          limit: args.limit,
          maxTokens: args.max_tokens,
          // For the injection record: what this session was given, and through which tool.
          sessionId: ctx.sessionId,
          sourceAgent: ctx.agent(),
          via: "memory_search",
        });
        return formatRecall(res);
      }),
  );
}

/** The tool's text for a Recall answer. */
export function formatRecall(res: RecallResponse): string {
  const scope = res.project ? `project ${res.project}` : "all projects";
  // Matching by meaning was left out: an empty or thin answer may not mean there is nothing.
  const skipped = res.vectorsSkipped ? `\nsearched by keywords and entities only: ${res.vectorsSkipped}` : "";
  if (res.memories.length === 0) {
    return `no memories match (${scope}).${skipped}\nIf you learn something worth keeping, save it with memory_save.`;
  }
  const head = `${res.memories.length} memories, ${scope}, depth ${res.depth}, ~${res.tokens} tokens` +
    (res.truncated ? " (more matched: raise limit or max_tokens)" : "") + skipped;
  if (res.depth <= 1) {
    const lines = res.memories.map(summaryLine);
    return [head, ...lines, "Read any in full: memory_search with depth 2 and their ids."].join("\n");
  }
  return [head, ...res.memories.map(fullBlock)].join("\n\n");
}

function summaryLine(r: RecalledMemory): string {
  return `${r.id} [${enumName(MemoryKindSchema, r.kind)}, ${r.project}]${score(r)} ${r.summary}`;
}

function fullBlock(r: RecalledMemory): string {
  const mark = r.associated ? " (associated)" : "";
  if (!r.memory) return `${summaryLine(r)}${mark}`;
  const [first, ...rest] = memoryFull(r.memory).split("\n");
  return [`${first}${score(r)}${mark}`, ...rest].join("\n");
}

function score(r: RecalledMemory): string {
  return r.score > 0 ? ` score ${r.score.toFixed(2)}` : "";
}
