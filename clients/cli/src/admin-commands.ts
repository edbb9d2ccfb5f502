import fs from "node:fs";
import readline from "node:readline";
import { fromJsonString, toJson, toJsonString } from "@bufbuild/protobuf";
import { type Command, Option } from "commander";
import { InstructionsChannelSchema } from "../../../gen/memd/v1/admin_service_pb.js";
import { type Memory, MemorySchema } from "../../../gen/memd/v1/memory_pb.js";
import { EmbedderStatusSchema, HealthStatusSchema } from "../../../gen/memd/v1/memory_service_pb.js";
import { formatEmbedder } from "./format.js";
import { action, CliFailure } from "./context.js";
import { enumNames, enumParser } from "./enums.js";

const IMPORT_BATCH = 500;

export function registerAdminCommands(program: Command): void {
  program
    .command("health")
    .description("check that memd is running and show its version")
    .action(
      action(async (ctx) => {
        const { health } = await ctx.clients.admin.health({});
        if (!health) throw new Error("the daemon returned no health");
        if (ctx.json) {
          ctx.printJson(toJson(HealthStatusSchema, health));
          return;
        }
        ctx.print(`memd ${health.version} ok: pid ${health.pid}, up ${health.uptimeSeconds}s, schema v${health.schemaVersion}, home ${health.home}`);
        if (health.embedder) ctx.print(formatEmbedder(health.embedder));
      }),
    );

  program
    .command("sync")
    .description("the session handshake an agent makes: project, counts, known projects")
    .option("-p, --project <name>", "project name (default: derived from the current directory)")
    .option("--session <id>", "agent session id")
    .action(
      action(async (ctx, opts: { project?: string; session?: string }) => {
        const res = await ctx.clients.memory.sync({ project: opts.project, cwd: process.cwd(), sessionId: opts.session });
        if (ctx.json) {
          ctx.printJson({
            project: res.project,
            projectActiveCount: Number(res.projectActiveCount),
            totalActiveCount: Number(res.totalActiveCount),
            projects: res.projects.map((p) => ({ name: p.name, root: p.root, activeCount: Number(p.activeCount) })),
          });
          return;
        }
        ctx.print(`project ${res.project}: ${res.projectActiveCount} active memories (${res.totalActiveCount} in all)`);
        for (const p of res.projects) ctx.print(`  ${p.name.padEnd(24)} ${String(p.activeCount).padStart(6)}  ${p.root}`);
      }),
    );

  program
    .command("brief")
    .description("the briefing an agent gets at session start: preferences, the project's decisions and facts, recent episodes, rules due")
    .option("-p, --project <name>", "project name (default: derived from the current directory)")
    .option("--session <id>", "agent session id (the briefing then repeats nothing that session was given)")
    // /memd load says so, for the injection record (memctl slash).
    .addOption(new Option("--via <name>", "what asked for the briefing, as the injection record names it").default("memctl brief").hideHelp())
    .action(
      action(async (ctx, opts: { project?: string; session?: string; via: string }) => {
        const res = await ctx.clients.memory.brief({ project: opts.project, cwd: process.cwd(), sessionId: opts.session, via: opts.via });
        if (ctx.json) {
          ctx.printJson({ project: res.project, text: res.text });
          return;
        }
        ctx.print(res.text === "" ? `memd holds nothing to brief on for ${res.project} yet` : res.text);
      }),
    );

  program
    .command("stats")
    .description("count memories by status, kind and project")
    .option("-p, --project <name>", "only this project")
    .action(
      action(async (ctx, opts: { project?: string }) => {
        const s = await ctx.clients.admin.stats({ project: opts.project });
        const counts = (list: { key: string; count: bigint }[]) => Object.fromEntries(list.map((c) => [c.key, Number(c.count)]));
        const view = {
          total: Number(s.total),
          byStatus: counts(s.byStatus),
          byKind: counts(s.byKind),
          byProject: counts(s.byProject),
          databaseBytes: Number(s.databaseBytes),
          schemaVersion: s.schemaVersion,
          embedder: s.embedder ? toJson(EmbedderStatusSchema, s.embedder) : null,
          ledger: counts(s.ledger),
          llm: s.llm ? { provider: s.llm.provider, model: s.llm.model, day: s.llm.day, tokensToday: Number(s.llm.tokensToday), callsToday: Number(s.llm.callsToday), dailyCapTokens: Number(s.llm.dailyCapTokens) } : null,
        };
        if (ctx.json) {
          ctx.printJson(view);
          return;
        }
        ctx.print(`${view.total} memories, database ${(view.databaseBytes / 1024 / 1024).toFixed(1)} MiB, schema v${view.schemaVersion}`);
        if (s.embedder) ctx.print(formatEmbedder(s.embedder));
        if (view.llm) {
          const { provider, model, tokensToday, callsToday, dailyCapTokens } = view.llm;
          ctx.print(`language model ${provider}:${model}: ${tokensToday} of ${dailyCapTokens} tokens today (${callsToday} calls)`);
        }
        for (const [title, record] of [["status", view.byStatus], ["kind (active)", view.byKind], ["project (active)", view.byProject], ["lifecycle", view.ledger]] as const) {
          ctx.print(`by ${title}:`);
          for (const [key, n] of Object.entries(record)) ctx.print(`  ${key.padEnd(24)} ${String(n).padStart(8)}`);
        }
      }),
    );

  program
    .command("export")
    .description("write every memory (archived and superseded included) as JSON Lines")
    .option("-o, --output <file>", "write to a file instead of stdout")
    .option("-p, --project <name>", "only this project")
    .action(
      action(async (ctx, opts: { output?: string; project?: string }) => {
        const out: NodeJS.WritableStream = opts.output ? fs.createWriteStream(opts.output, { mode: 0o600 }) : process.stdout;
        let count = 0;
        for await (const res of ctx.clients.admin.export({ project: opts.project })) {
          if (!res.memory) continue;
          if (!out.write(`${toJsonString(MemorySchema, res.memory)}\n`)) {
            await new Promise<void>((resolve) => out.once("drain", () => resolve()));
          }
          count += 1;
        }
        if (out !== process.stdout) {
          await new Promise<void>((resolve) => out.end(() => resolve()));
          process.stderr.write(`exported ${count} memories to ${opts.output}\n`);
        }
      }),
    );

  program
    .command("import")
    .description("read memories from JSON Lines (as export writes them); importing twice changes nothing")
    .argument("<file>", "a file, or - for stdin")
    .action(
      action(async (ctx, file: string) => {
        const input = file === "-" ? process.stdin : fs.createReadStream(file);
        // Parse everything first, so that a bad line stops the import before anything is written.
        const memories: Memory[] = [];
        let lineNumber = 0;
        for await (const line of readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
          lineNumber += 1;
          if (line.trim() === "") continue;
          try {
            memories.push(fromJsonString(MemorySchema, line));
          } catch (error) {
            throw new CliFailure(`line ${lineNumber} is not a memory (${(error as Error).message}); nothing was imported`);
          }
        }
        const totals = { created: 0, updated: 0, unchanged: 0 };
        for (let i = 0; i < memories.length; i += IMPORT_BATCH) {
          const res = await ctx.clients.admin.import({ memories: memories.slice(i, i + IMPORT_BATCH) });
          totals.created += res.created;
          totals.updated += res.updated;
          totals.unchanged += res.unchanged;
        }
        if (ctx.json) ctx.printJson(totals);
        else ctx.print(`imported: ${totals.created} created, ${totals.updated} updated, ${totals.unchanged} unchanged`);
      }),
    );

  program
    .command("prompt")
    .description("print the system prompt that teaches an agent to use memd")
    .addOption(
      new Option("--channel <channel>", "how the agent reaches memd")
        .choices(enumNames(InstructionsChannelSchema))
        .argParser(enumParser(InstructionsChannelSchema)),
    )
    .action(
      action(async (ctx, opts: { channel?: number }) => {
        const { text } = await ctx.clients.admin.instructions({ channel: opts.channel });
        process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
      }),
    );
}
