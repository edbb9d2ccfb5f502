import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import { MemoryStatus } from "../../../gen/memd/v1/memory_pb.js";
import type { InjectionTally } from "../../../gen/memd/v1/memory_service_pb.js";
import { action } from "./context.js";
import { listParser } from "./enums.js";
import { formatMemoryLine, memoryJson } from "./format.js";

/** Corrections and the promotion gate: supersede, history, staged, promote, reject. */
export function registerCorrectionCommands(program: Command): void {
  program
    .command("supersede")
    .description("correct a memory: save the new claim and mark the old one superseded (nothing is overwritten)")
    .argument("<id>", "the memory that no longer holds")
    .requiredOption("--content <text>", "the new claim")
    .option("-r, --reason <text>", "why the old claim no longer holds", "")
    .option("-c, --concepts <list>", "topics (default: the old memory's)", listParser)
    .option("-f, --files <list>", "files (default: the old memory's)", listParser)
    .action(
      action(async (ctx, id: string, opts: { content: string; reason: string; concepts?: string[]; files?: string[] }) => {
        const res = await ctx.clients.memory.supersede({ id, content: opts.content, reason: opts.reason, concepts: opts.concepts, files: opts.files });
        if (ctx.json) ctx.printJson({ memory: res.memory && memoryJson(res.memory), superseded: res.superseded && memoryJson(res.superseded) });
        else ctx.print(`saved ${res.memory?.id}; ${id} is superseded`);
      }),
    );

  program
    .command("history")
    .description("show a memory's chain of claims, when each was recorded and when it stopped holding")
    .argument("<id>", "any memory of the chain")
    .action(
      action(async (ctx, id: string) => {
        const res = await ctx.clients.memory.history({ id });
        if (ctx.json) {
          ctx.printJson({
            chain: res.chain.map(memoryJson),
            events: res.events.map((e) => ({ ...e, time: e.time && timestampDate(e.time).toISOString(), injectedBefore: e.injectedBefore && tallyJson(e.injectedBefore) })),
            injections: res.injections.map(tallyJson),
          });
          return;
        }
        const injected = new Map(res.injections.map((t) => [t.memoryId, t]));
        for (const m of res.chain) {
          const recorded = m.createTime ? timestampDate(m.createTime).toISOString() : "?";
          const until = m.invalidTime ? timestampDate(m.invalidTime).toISOString() : "now";
          ctx.print(`${recorded} .. ${until}  ${formatMemoryLine(m)}`);
          const tally = injected.get(m.id);
          if (tally) ctx.print(`  ${formatTally(tally)}`);
        }
        for (const e of res.events) {
          ctx.print(`  ${e.time ? timestampDate(e.time).toISOString() : "?"}  ${e.action.padEnd(10)} ${e.memoryId}${e.detail && e.action !== "updated" ? `  ${e.detail}` : ""}`);
          if (e.injectedBefore) ctx.print(`    before this, ${formatTally(e.injectedBefore)}`);
        }
      }),
    );

  program
    .command("staged")
    .description("list staged memories: inferred guesses waiting for confirmation")
    .option("-p, --project <name>", "only this project")
    .action(
      action(async (ctx, opts: { project?: string }) => {
        const res = await ctx.clients.memory.list({ project: opts.project, statuses: [MemoryStatus.STAGED], pageSize: 1000 });
        if (ctx.json) ctx.printJson(res.memories.map(memoryJson));
        else if (res.memories.length === 0) ctx.print("nothing is staged");
        else for (const m of res.memories) ctx.print(formatMemoryLine(m));
      }),
    );

  program
    .command("promote")
    .description("confirm a staged memory: it becomes active")
    .argument("<id>", "the staged memory")
    .action(
      action(async (ctx, id: string) => {
        const res = await ctx.clients.memory.promote({ id });
        if (ctx.json) ctx.printJson(res.memory && memoryJson(res.memory));
        else ctx.print(`promoted ${id}`);
      }),
    );

  program
    .command("restore")
    .description("say an archived memory still holds: it becomes active again")
    .argument("<id>", "the archived memory")
    .action(
      action(async (ctx, id: string) => {
        const res = await ctx.clients.memory.restore({ id });
        if (ctx.json) ctx.printJson(res.memory && memoryJson(res.memory));
        else ctx.print(`restored ${id}`);
      }),
    );

  program
    .command("reject")
    .description("say a staged memory is wrong: it is archived, never deleted")
    .argument("<id>", "the staged memory")
    .option("-r, --reason <text>", "why it is wrong", "")
    .action(
      action(async (ctx, id: string, opts: { reason: string }) => {
        const res = await ctx.clients.memory.reject({ id, reason: opts.reason });
        if (ctx.json) ctx.printJson(res.memory && memoryJson(res.memory));
        else ctx.print(`rejected ${id}`);
      }),
    );
}

/** "injected 3 times, last in session S (claude-code) at T": what agents were told about a memory. */
function formatTally(t: InjectionTally): string {
  const where = t.lastSessionId ? ` in session ${t.lastSessionId}` : "";
  const agent = t.lastAgent ? ` (${t.lastAgent})` : "";
  return `injected ${t.count} ${t.count === 1 ? "time" : "times"}, last${where}${agent} at ${t.lastTime ? timestampDate(t.lastTime).toISOString() : "?"}`;
}

function tallyJson(t: InjectionTally) {
  return { memoryId: t.memoryId, count: t.count, lastTime: t.lastTime && timestampDate(t.lastTime).toISOString(), lastSessionId: t.lastSessionId, lastAgent: t.lastAgent };
}
