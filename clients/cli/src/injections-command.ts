import { toJson } from "@bufbuild/protobuf";
import { timestampDate, timestampFromMs, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import { type Injection, InjectionKindSchema, InjectionSchema, InjectionTotalsSchema, type InjectionTotals } from "../../../gen/memd/v1/injection_service_pb.js";
import { MemoryKindSchema } from "../../../gen/memd/v1/memory_pb.js";
import { action } from "./context.js";
import { enumName, intParser } from "./enums.js";
import { parseSince } from "./since.js";

const time = (t: Timestamp | undefined) => (t ? timestampDate(t).toISOString().slice(0, 19).replace("T", " ") : "?");

/**
 * memctl injections: what memd put into agents' contexts (InjectionService), newest first, each
 * with the memories it carried and why, then the totals per UTC day and agent.
 */
export function registerInjectionsCommand(program: Command): void {
  program
    .command("injections")
    .description("what memd told agents: each briefing, prompt's pointers (or none) and recall, with its memories, why, and tokens; then totals per day and agent")
    .option("--session <id>", "only this session")
    .option("--agent <name>", "only this agent (claude-code, codex, gemini, copilot, opencode, ...)")
    .option("--since <age|date>", "only since then: an age (90m, 12h, 7d, 2w) or a date or time (2026-12-01); totals default to 30 days", (value: string) => parseSince(value, Date.now()))
    .option("-n, --limit <n>", "at most this many injections (default 50, at most 1000)", intParser)
    .action(
      action(async (ctx, opts: { session?: string; agent?: string; since?: number; limit?: number }) => {
        const since = opts.since === undefined ? undefined : timestampFromMs(opts.since);
        const filters = { sessionId: opts.session, agent: opts.agent, since };
        const [listed, summary] = await Promise.all([
          ctx.clients.injections.listInjections({ ...filters, pageSize: opts.limit }),
          ctx.clients.injections.summarizeInjections(filters),
        ]);
        if (ctx.json) {
          ctx.printJson({
            injections: listed.injections.map((i) => toJson(InjectionSchema, i)),
            totals: summary.totals.map((t) => toJson(InjectionTotalsSchema, t)),
            more: listed.nextPageToken !== "",
          });
          return;
        }
        if (listed.injections.length === 0) ctx.print("nothing recorded");
        for (const injection of listed.injections) ctx.print(formatInjection(injection));
        if (listed.nextPageToken !== "") ctx.print("(more were recorded: raise --limit, or narrow with --since or --session)");
        if (summary.totals.length > 0) ctx.print(["", "per UTC day and agent:", ...formatTotals(summary.totals)].join("\n"));
      }),
    );
}

function formatInjection(i: Injection): string {
  const what = enumName(InjectionKindSchema, i.kind);
  const prompt = i.prompt === "" ? "" : `  "${i.prompt.length > 80 ? `${i.prompt.slice(0, 79)}…` : i.prompt}"`;
  const size = i.memories.length === 0 && i.tokens === 0 ? "nothing injected" : `${i.memories.length} ${i.memories.length === 1 ? "memory" : "memories"}, ${i.tokens} tokens`;
  const head = `${time(i.time)}  ${i.agent || "-"}  ${i.sessionId || "-"}  ${i.via}  ${what}${prompt}  ${size}`;
  const lines = i.memories.map((m) => {
    const score = m.score > 0 ? ` score ${m.score.toFixed(2)}` : "";
    return `  ${m.memoryId} (${enumName(MemoryKindSchema, m.kind)})${score}  ${m.line}  [${m.why}]`;
  });
  return [head, ...lines].join("\n");
}

function formatTotals(totals: readonly InjectionTotals[]): string[] {
  const header = ["day", "agent", "injections", "tokens", "briefings", "prompts", "nothing injected", "recalls"];
  const rows = totals.map((t) => [t.day, t.agent || "-", String(t.injections), String(t.tokens), String(t.briefings), String(t.prompts), String(t.emptyPrompts), String(t.recalls)]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] as string).length)));
  return [header, ...rows].map((r) => r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number))).join("  "));
}
