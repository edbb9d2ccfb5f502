import { type Command, Option } from "commander";
import { ReindexTargetSchema } from "../../../gen/memd/v1/admin_service_pb.js";
import { action } from "./context.js";
import { enumName, enumNames, enumParser } from "./enums.js";

const BAR_WIDTH = 30;

export function registerReindexCommand(program: Command): void {
  program
    .command("reindex")
    .description("rebuild derived indexes from the memories: every vector, the keyword index, or both")
    .addOption(
      new Option("--target <target>", "vectors or keyword (default both)")
        .choices(enumNames(ReindexTargetSchema))
        .argParser(enumParser(ReindexTargetSchema)),
    )
    .action(
      action(async (ctx, opts: { target?: number }) => {
        const tty = process.stderr.isTTY === true && !ctx.json;
        let last = "";
        for await (const progress of ctx.clients.admin.reindex({ target: opts.target })) {
          const name = enumName(ReindexTargetSchema, progress.target);
          const done = Number(progress.done);
          const total = Number(progress.total);
          if (ctx.json) {
            ctx.print(JSON.stringify({ target: name, done, total, lastError: progress.lastError }));
          } else if (tty) {
            process.stderr.write(`\r${progressBar(name, done, total, progress.lastError)}`);
          }
          last = `${name}: ${done}/${total}`;
          if (!ctx.json && !tty && done === total) ctx.print(`${name}: rebuilt ${total} memories`);
        }
        if (tty) process.stderr.write("\n");
        if (!ctx.json && tty) ctx.print(`reindex done (${last})`);
      }),
    );
}

/** One line such as "vectors [##########----------]  512/1024  50%". */
export function progressBar(name: string, done: number, total: number, lastError: string): string {
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(share * BAR_WIDTH);
  const bar = `${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}`;
  const warning = lastError ? `  (retrying: ${lastError.slice(0, 60)})` : "";
  return `${name.padEnd(8)} [${bar}] ${String(done).padStart(String(total).length)}/${total} ${String(Math.round(share * 100)).padStart(3)}%${warning}`;
}
