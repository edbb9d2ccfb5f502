import path from "node:path";
import { toJson } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import {
  CompressMemoryFilesResponseSchema, CompressOutcome, type CompressedFile, DisableMemoryFileSyncResponseSchema,
  EnableMemoryFileSyncResponseSchema, ListMemoryFileSyncsResponseSchema, type MemoryFileSync,
} from "../../../gen/memd/v1/memory_file_service_pb.js";
import { action } from "./context.js";

/** MEMORY.md sync (a generated section listing a project's top memories) and compression of Claude Code notes. */
export function registerMemoryFileCommands(program: Command): void {
  const memoryFile = program
    .command("memory-file")
    .description("keep a MEMORY.md section listing the project's top five memories (opt-in per project)");

  memoryFile
    .command("enable")
    .description("turn MEMORY.md sync on; the default file is Claude Code's auto-memory index for the project")
    .option("--path <file>", "the .md file to keep the section in (default ~/.claude/projects/<project>/memory/MEMORY.md)")
    .option("-p, --project <name>", "the project (default: derived from the current directory)")
    .action(
      action(async (ctx, opts: { path?: string; project?: string }) => {
        const res = await ctx.clients.memoryFiles.enableMemoryFileSync({
          project: opts.project,
          cwd: process.cwd(),
          path: opts.path === undefined ? "" : path.resolve(opts.path),
        });
        if (ctx.json) return ctx.printJson(toJson(EnableMemoryFileSyncResponseSchema, res));
        ctx.print(`MEMORY.md sync is on for ${res.sync?.project}: ${res.sync?.path}`);
        if (res.previousPath) ctx.print(`  moved from ${res.previousPath} (memd's section was removed there)`);
      }),
    );

  memoryFile
    .command("disable")
    .description("turn MEMORY.md sync off and remove memd's section (the rest of the file stays)")
    .option("-p, --project <name>", "the project (default: derived from the current directory)")
    .action(
      action(async (ctx, opts: { project?: string }) => {
        const res = await ctx.clients.memoryFiles.disableMemoryFileSync({ project: opts.project, cwd: process.cwd() });
        if (ctx.json) return ctx.printJson(toJson(DisableMemoryFileSyncResponseSchema, res));
        const removed = res.sectionRemoved ? "memd's section was removed" : "no memd section was found to remove";
        ctx.print(`MEMORY.md sync is off for ${res.sync?.project}; ${removed} from ${res.sync?.path}`);
      }),
    );

  memoryFile
    .command("list")
    .description("list the projects whose MEMORY.md is kept in sync")
    .action(
      action(async (ctx) => {
        const res = await ctx.clients.memoryFiles.listMemoryFileSyncs({});
        if (ctx.json) return ctx.printJson(toJson(ListMemoryFileSyncsResponseSchema, res));
        if (res.syncs.length === 0) return ctx.print("no project has MEMORY.md sync on (memctl memory-file enable turns it on)");
        for (const sync of res.syncs) ctx.print(formatSync(sync));
      }),
    );

  program
    .command("compress")
    .description(
      "replace Claude Code memory notes that memd already holds with short stubs naming their ids " +
        "(default: the project's ~/.claude/projects/<project>/memory); each changed file is backed up first",
    )
    .argument("[paths...]", "notes (.md) or directories of notes")
    .option("--dry-run", "only report what would change")
    .option("-p, --project <name>", "the project whose memories count (default: derived from the current directory)")
    .action(
      action(async (ctx, paths: string[], opts: { dryRun?: boolean; project?: string }) => {
        const res = await ctx.clients.memoryFiles.compressMemoryFiles({
          paths: paths.map((p) => path.resolve(p)),
          dryRun: opts.dryRun,
          project: opts.project,
          cwd: process.cwd(),
        });
        if (ctx.json) return ctx.printJson(toJson(CompressMemoryFilesResponseSchema, res));
        for (const file of res.files) ctx.print(formatFile(file, res.dryRun));
        const compressed = res.files.filter((f) => f.outcome === CompressOutcome.COMPRESSED).length;
        ctx.print(`${res.dryRun ? "would compress" : "compressed"} ${compressed} of ${res.files.length} files`);
      }),
    );
}

function formatSync(sync: MemoryFileSync): string {
  const written = sync.lastWriteTime ? `last written ${timestampDate(sync.lastWriteTime).toISOString()}` : "not written since memd started";
  const error = sync.lastError ? `\n  error: ${sync.lastError}` : "";
  return `${sync.project}  ${sync.path}\n  ${written}${error}`;
}

function formatFile(file: CompressedFile, dryRun: boolean): string {
  switch (file.outcome) {
    case CompressOutcome.COMPRESSED:
      return `${dryRun ? "would compress" : "compressed"}  ${file.path} -> ${file.memoryId}${file.backupPath ? `\n  backup: ${file.backupPath}` : ""}`;
    case CompressOutcome.ALREADY_STUB:
      return `already a stub  ${file.path} -> ${file.memoryId}`;
    case CompressOutcome.NOT_IN_DATABASE:
      return `not in memd  ${file.path}\n  ${file.reason}`;
    default:
      return `skipped  ${file.path}\n  ${file.reason}`;
  }
}
