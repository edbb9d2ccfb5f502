import { toJson } from "@bufbuild/protobuf";
import type { Command } from "commander";
import { SuggestResponseSchema } from "../../../gen/memd/v1/memory_service_pb.js";
import { action } from "./context.js";
import { intParser } from "./enums.js";
import { vectorsSkippedNote } from "./format.js";

/**
 * memctl suggest: the pointers an agent's prompt hook would inject (MemoryService.Suggest), for
 * agents without Claude Code hooks and for checking what a prompt would bring up. Prints the
 * context text as the daemon rendered it, and nothing when no memory clears the bar.
 */
export function registerSuggestCommand(program: Command): void {
  program
    .command("suggest")
    .description("pointers to memories that clearly bear on a prompt (usually none: the bar is strict)")
    .argument("<prompt...>", "the user's prompt")
    .option("-p, --project <name>", "the current project (default: derived from the current directory)")
    .option("--session <id>", "agent session id: pointers already given to it are not repeated, and new ones are recorded")
    .option("-n, --limit <n>", "at most this many pointers (default 3)", intParser)
    .action(
      action(async (ctx, words: string[], opts: { project?: string; session?: string; limit?: number }) => {
        const res = await ctx.clients.memory.suggest({
          query: words.join(" "),
          project: opts.project,
          cwd: process.cwd(),
          sessionId: opts.session,
          limit: opts.limit,
          via: "memctl suggest",
        });
        if (res.vectorsSkipped !== "") ctx.note(vectorsSkippedNote(res.vectorsSkipped));
        if (ctx.json) {
          ctx.printJson(toJson(SuggestResponseSchema, res));
          return;
        }
        if (res.text !== "") ctx.print(res.text);
        for (const pointer of res.pointers) ctx.print(`  ${pointer.id}: ${pointer.why}`);
      }),
    );
}
