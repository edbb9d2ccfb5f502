import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Count } from "../../../gen/memd/v1/admin_service_pb.js";
import type { EmbedderStatus, HealthStatus } from "../../../gen/memd/v1/memory_service_pb.js";
import { enumName } from "./enum-names.js";
import { memoryLine } from "./format.js";
import { dryRunField, projectField, sessionField } from "./input-fields.js";
import { startDaemon } from "./start-daemon.js";
import type { ToolContext } from "./tool-context.js";
import { runTool } from "./tool-result.js";

/** The session handshake, the daemon's state, starting it, and maintenance. */
export function registerAdminTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "memory_sync",
    {
      title: "Start a memory session",
      description:
        "Call once at the start of every session, before other memory tools: it says which project you are in, how many " +
        "memories it holds and which projects exist. If it says memd is not running, call memory_start.",
      inputSchema: { project: projectField.optional(), session_id: sessionField.optional() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).memory.sync({
          project: args.project,
          cwd: ctx.cwd,
          sessionId: args.session_id ?? ctx.sessionId,
          sourceAgent: ctx.agent(),
        });
        const projects = res.projects.slice(0, 10).map((p) => `${p.name} (${p.activeCount})`).join(", ");
        return [
          `${healthLine(res.health)}`,
          `project ${res.project}: ${res.projectActiveCount} active memories (${res.totalActiveCount} in all)`,
          `projects: ${projects || "none yet"}${res.projects.length > 10 ? `, and ${res.projects.length - 10} more` : ""}`,
          "Search (memory_search) before deciding how to do things; save preferences, rules, decisions and facts as you learn them.",
        ].join("\n");
      }),
  );

  server.registerTool(
    "memory_health",
    {
      title: "memd health",
      description: "Say whether the memd daemon is running, its version, home and embedder.",
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      runTool(async () => {
        const { health } = await (await ctx.link.clients()).admin.health({});
        return [healthLine(health), `home ${health?.home ?? "?"}`, ...(health?.embedder ? [await embedderLine(health.embedder)] : [])].join("\n");
      }),
  );

  server.registerTool(
    "memory_start",
    {
      title: "Start memd",
      description: "Start the memd daemon in the background when a memory tool said \"memd is not running\". Does nothing if it runs.",
      inputSchema: {},
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => runTool(() => startDaemon(ctx.link, ctx.daemonMain)),
  );

  server.registerTool(
    "memory_stats",
    {
      title: "memd statistics",
      description: "Count memories by status, kind and project, with the lifecycle ledger and storage size.",
      inputSchema: { project: projectField.optional().describe("Only this project (default: every project)") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const s = await (await ctx.link.clients()).admin.stats({ project: args.project });
        return [
          `total ${s.total} memories${args.project ? ` in ${args.project}` : ""}, database ${(Number(s.databaseBytes) / 1024).toFixed(0)} KiB, schema ${s.schemaVersion}`,
          `by status: ${counts(s.byStatus)}`,
          `active by kind: ${counts(s.byKind)}`,
          `active by project: ${counts(s.byProject)}`,
          `ledger: ${counts(s.ledger)}`,
          ...(s.embedder ? [await embedderLine(s.embedder)] : []),
        ].join("\n");
      }),
  );

  server.registerTool(
    "memory_clean",
    {
      title: "Clean memory",
      description:
        "Archive what stopped mattering: decayed, expired, stale staged and near-duplicate memories (pinned ones never; " +
        "nothing is deleted). Run with dry_run true first to see what it would do.",
      inputSchema: { dry_run: dryRunField.optional() },
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).admin.clean({ dryRun: args.dry_run });
        const verb = res.dryRun ? "would archive" : "archived";
        if (res.archived.length === 0) return `${verb} nothing`;
        const lines = res.archived.map((a) => `${a.memoryId} ${a.reason}${a.relatedId ? ` (kept ${a.relatedId})` : ""}`);
        return [`${verb} ${res.archived.length}:`, ...lines].join("\n");
      }),
  );

  server.registerTool(
    "memory_consolidate",
    {
      title: "Consolidate memory",
      description:
        "Merge clusters of aging, similar memories (same project and kind) into one consolidated memory each; the " +
        "originals are archived with a link. Run with dry_run true first to see what it would merge.",
      inputSchema: { dry_run: dryRunField.optional() },
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).admin.consolidate({ dryRun: args.dry_run });
        const verb = res.dryRun ? "would merge" : "merged";
        if (res.consolidations.length === 0) return `${verb} nothing: no cluster of similar aging memories`;
        const blocks = res.consolidations.map((c) => {
          const into = c.memory ? (c.memory.id ? memoryLine(c.memory) : `(new) ${c.memory.content.slice(0, 200)}`) : "?";
          return `${c.originalIds.join(", ")}\n  -> ${into}`;
        });
        return [`${verb} ${res.consolidations.length} clusters:`, ...blocks].join("\n");
      }),
  );

}

function healthLine(health: HealthStatus | undefined): string {
  if (!health) return "memd answered without a health status";
  return `memd ${health.version} ${health.ok ? "ok" : "NOT ok"}, pid ${health.pid}, up ${health.uptimeSeconds}s`;
}

async function embedderLine(e: EmbedderStatus): Promise<string> {
  if (e.provider === "none" || e.provider === "") return `embedder: none (${e.reason || "keyword search only"})`;
  // The services' descriptors came with the transport (see daemon-link.ts), so this import is already loaded.
  const { EmbedderStateSchema } = await import("../../../gen/memd/v1/memory_service_pb.js");
  const error = e.lastError ? `, last error: ${e.lastError}` : "";
  return `embedder: ${e.provider} ${e.model}, ${enumName(EmbedderStateSchema, e.state)}, ${e.queueDepth} queued${e.reindexing ? ", reindexing" : ""}${error}`;
}

function counts(list: Count[]): string {
  return list.length === 0 ? "none" : list.map((c) => `${c.key} ${c.count}`).join(", ");
}
