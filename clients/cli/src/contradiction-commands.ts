import { toJson } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Option, type Command } from "commander";
import { type Contradiction, ContradictionResolution, ContradictionResolutionSchema, ContradictionSchema } from "../../../gen/memd/v1/contradiction_pb.js";
import { action } from "./context.js";
import { enumName, intParser } from "./enums.js";
import { formatMemoryLine } from "./format.js";

const KEEP = { newer: ContradictionResolution.KEPT_NEWER, older: ContradictionResolution.KEPT_OLDER, both: ContradictionResolution.COMPATIBLE } as const;

/** The queue of contradictions found on write: list, settle. */
export function registerContradictionCommands(program: Command): void {
  const command = program
    .command("contradictions")
    .description("list pairs of memories that say different things about the same subject, found when the newer was saved")
    .option("-p, --project <name>", "only this project and global")
    .option("--all", "also list the settled ones")
    .action(
      action(async (ctx, opts: { project?: string; all?: boolean }) => {
        const res = await ctx.clients.contradictions.listContradictions({ project: opts.project, includeSettled: opts.all, pageSize: 500 });
        if (ctx.json) {
          ctx.printJson(res.contradictions.map((c) => toJson(ContradictionSchema, c)));
          return;
        }
        if (res.contradictions.length === 0) ctx.print(opts.all ? "no contradictions" : "no open contradictions");
        for (const c of res.contradictions) ctx.print(formatContradiction(c));
      }),
    );

  command
    .command("settle")
    .description("say which memory holds: newer or older (the other is superseded by it), or both (never asked again)")
    .argument("<id>", "the contradiction", intParser)
    .addOption(new Option("--keep <which>", "the memory that holds").choices(["newer", "older", "both"]).makeOptionMandatory())
    .action(
      action(async (ctx, id: number, opts: { keep: keyof typeof KEEP }) => {
        const res = await ctx.clients.contradictions.settleContradiction({ id, resolution: KEEP[opts.keep] });
        if (ctx.json) ctx.printJson(res.contradiction && toJson(ContradictionSchema, res.contradiction));
        else ctx.print(res.superseded ? `settled: ${res.superseded.id} is superseded` : "settled: both hold");
      }),
    );
}

/** A contradiction in a few lines: its id and subject, then the newer and the older memory. */
function formatContradiction(c: Contradiction): string {
  const subject = c.subject === "" ? "" : ` ${c.subject}:`;
  const says = c.newerSays !== "" || c.olderSays !== "" ? ` ${c.newerSays} against ${c.olderSays}` : "";
  const settled = c.resolution === ContradictionResolution.UNSPECIFIED ? "open" : `settled ${enumName(ContradictionResolutionSchema, c.resolution)}`;
  const found = c.foundTime ? timestampDate(c.foundTime).toISOString().slice(0, 10) : "";
  return [
    `contradiction ${c.id} (${settled}, ${found}, ${c.detector})${subject}${says}`,
    `  newer: ${c.memory ? formatMemoryLine(c.memory).replace("\n", "\n  ") : "(gone)"}`,
    `  older: ${c.other ? formatMemoryLine(c.other).replace("\n", "\n  ") : "(gone)"}`,
  ].join("\n");
}

/** What memctl add, checkpoint and update print after the memory written, when it contradicts others. */
export function contradictionNotes(contradictions: readonly Contradiction[]): string[] {
  if (contradictions.length === 0) return [];
  return [
    `it may contradict ${contradictions.length === 1 ? "1 memory" : `${contradictions.length} memories`} (queued, nothing changed; settle with memctl contradictions settle ID --keep newer|older|both):`,
    ...contradictions.map((c) => `  contradiction ${c.id}: ${c.other ? `${c.other.id} ${c.other.content.replace(/\s+/g, " ").slice(0, 160)}` : "(gone)"}`),
  ];
}
