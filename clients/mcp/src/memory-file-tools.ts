import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { CompressOutcome, type CompressedFile } from "../../../gen/memd/v1/memory_file_service_pb.js";
import { dryRunField, projectField } from "./input-fields.js";
import type { ToolContext } from "./tool-context.js";
import { runTool } from "./tool-result.js";

/** Compression of Claude Code's auto-memory notes into stubs once memd holds them. */
export function registerMemoryFileTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "memory_compress",
    {
      title: "Compress memory notes memd already holds",
      description:
        "Replace Claude Code auto-memory notes (the .md files beside MEMORY.md) whose content memd already holds with short " +
        "stubs that keep the frontmatter and name the memory id (read one with memory_get). Notes memd does not hold are " +
        "left alone and listed. Each changed file is backed up first. Use dry_run first to see what would change.",
      inputSchema: {
        dry_run: dryRunField.optional(),
        directory: z
          .string()
          .min(1)
          .optional()
          .describe("Absolute path of a directory of notes (default: this project's Claude Code memory directory)"),
        project: projectField.optional(),
      },
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).memoryFiles.compressMemoryFiles({
          paths: args.directory ? [args.directory] : [],
          dryRun: args.dry_run,
          project: args.project,
          cwd: ctx.cwd,
        });
        const compressed = res.files.filter((f) => f.outcome === CompressOutcome.COMPRESSED).length;
        const head = `${res.dryRun ? "would compress" : "compressed"} ${compressed} of ${res.files.length} notes (project ${res.project})`;
        return [head, ...res.files.map((f) => fileLine(f, res.dryRun))].join("\n");
      }),
  );
}

function fileLine(file: CompressedFile, dryRun: boolean): string {
  switch (file.outcome) {
    case CompressOutcome.COMPRESSED:
      return `- ${dryRun ? "would compress" : "compressed"} ${file.path} -> ${file.memoryId}`;
    case CompressOutcome.ALREADY_STUB:
      return `- already a stub: ${file.path} -> ${file.memoryId}`;
    case CompressOutcome.NOT_IN_DATABASE:
      return `- not in memd (left as is): ${file.path}: ${file.reason}`;
    default:
      return `- skipped: ${file.path}: ${file.reason}`;
  }
}
