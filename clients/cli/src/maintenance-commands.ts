import type { Command } from "commander";
import { action } from "./context.js";
import { formatMemoryLine, memoryJson } from "./format.js";

/** On-demand maintenance; the daemon also runs both daily and after every ten saves. */
export function registerMaintenanceCommands(program: Command): void {
  program
    .command("review")
    .description("list memories due for review (rules past their review date): confirm, edit or archive them")
    .option("-p, --project <name>", "only this project")
    .action(
      action(async (ctx, opts: { project?: string }) => {
        const res = await ctx.clients.memory.list({ project: opts.project, reviewDue: true });
        if (ctx.json) ctx.printJson(res.memories.map(memoryJson));
        else if (res.memories.length === 0) ctx.print("nothing is due for review");
        else for (const m of res.memories) ctx.print(formatMemoryLine(m));
      }),
    );

  program
    .command("purge")
    .description('delete archived memories for good, after a backup (needs --confirm "delete archived memories")')
    .requiredOption("--confirm <words>", 'type exactly: "delete archived memories"')
    .action(
      action(async (ctx, opts: { confirm: string }) => {
        const res = await ctx.clients.admin.purge({ confirm: opts.confirm });
        if (ctx.json) ctx.printJson({ deleted: Number(res.deleted), backupPath: res.backupPath });
        else ctx.print(`deleted ${res.deleted} archived memories; the database before the purge is at ${res.backupPath}`);
      }),
    );

  program
    .command("clean")
    .description("archive what stopped mattering: decayed, expired, stale staged and near-duplicate memories (never deletes)")
    .option("--dry-run", "only report what would be archived")
    .action(
      action(async (ctx, opts: { dryRun?: boolean }) => {
        const res = await ctx.clients.admin.clean({ dryRun: opts.dryRun });
        if (ctx.json) {
          ctx.printJson({ dryRun: res.dryRun, archived: res.archived.map((a) => ({ ...a })) });
          return;
        }
        const verb = res.dryRun ? "would archive" : "archived";
        ctx.print(`${verb} ${res.archived.length} memories`);
        for (const a of res.archived) ctx.print(`  ${a.memoryId}  ${a.reason}${a.relatedId ? ` (keeps ${a.relatedId})` : ""}`);
      }),
    );

  program
    .command("consolidate")
    .description("merge clusters of aging, similar memories into one and archive the originals with a link")
    .option("--dry-run", "only report what would be merged")
    .action(
      action(async (ctx, opts: { dryRun?: boolean }) => {
        const res = await ctx.clients.admin.consolidate({ dryRun: opts.dryRun });
        if (ctx.json) {
          ctx.printJson({ dryRun: res.dryRun, consolidations: res.consolidations.map((c) => ({ content: c.memory?.content, id: c.memory?.id, originalIds: c.originalIds })) });
          return;
        }
        ctx.print(`${res.dryRun ? "would merge" : "merged"} ${res.consolidations.length} clusters`);
        for (const c of res.consolidations) {
          if (c.memory) ctx.print(formatMemoryLine(c.memory));
          ctx.print(`  from ${c.originalIds.join(", ")}`);
        }
      }),
    );
}
