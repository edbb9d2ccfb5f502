import { create, type MessageInitShape, toJson } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Command, Option } from "commander";
import { MemoryKindSchema, MemoryStatusSchema, ProvenanceSchema, TierSchema } from "../../../gen/memd/v1/memory_pb.js";
import { RecallResponseSchema, ScoreExplanationSchema, SearchMode, SearchModeSchema, StringListSchema, UpdateRequestSchema } from "../../../gen/memd/v1/memory_service_pb.js";
import { contradictionNotes } from "./contradiction-commands.js";
import { action } from "./context.js";
import {
  dateParser, enumListParser, enumNames, enumParser, intParser, listParser, numberParser,
} from "./enums.js";
import { formatExplanation, formatMemoryFull, formatMemoryLine, memoryJson, vectorsSkippedNote } from "./format.js";

interface FieldOptions {
  kind?: number;
  project?: string;
  problem?: string;
  solution?: string;
  concepts?: string[];
  files?: string[];
  tags?: string[];
  confidence?: number;
  tier?: number;
  pinned?: boolean;
  importance?: number;
  valence?: number;
  intensity?: number;
  expires?: Date;
  review?: Date;
}

/** The structured fields shared by add and update. */
function fieldOptions(command: Command): Command {
  return command
    .addOption(new Option("-k, --kind <kind>", "what sort of memory").choices(enumNames(MemoryKindSchema)).argParser(enumParser(MemoryKindSchema)))
    .option("-p, --project <name>", "project name (default: derived from the current directory; 'global' for user-wide)")
    .option("--problem <text>", "the problem that was faced")
    .option("--solution <text>", "how it was solved")
    .option("-c, --concepts <list>", "topics, comma-separated or repeated", listParser)
    .option("-f, --files <list>", "repository paths, comma-separated or repeated", listParser)
    .option("-t, --tags <list>", "labels, comma-separated or repeated", listParser)
    .option("--confidence <0..1>", "how far it is believed", numberParser)
    .addOption(new Option("--tier <tier>", "core or regular").choices(enumNames(TierSchema)).argParser(enumParser(TierSchema)))
    .option("--pinned", "never let it decay")
    .option("--importance <1..5>", "how much it matters", intParser)
    .option("--valence <-1..1>", "emotional tone", numberParser)
    .option("--intensity <0..1>", "emotional strength", numberParser)
    .option("--expires <date>", "when it stops being valid", dateParser)
    .option("--review <date>", "when a person should review it", dateParser);
}

export function registerMemoryCommands(program: Command): void {
  fieldOptions(
    program
      .command("add")
      .description("save a memory")
      .argument("<content...>", "the memory text")
      .addOption(new Option("--provenance <source>", "how it came to be").choices(enumNames(ProvenanceSchema)).argParser(enumParser(ProvenanceSchema)))
      .option("--session <id>", "agent session id")
      .option("--agent <name>", "agent name, e.g. claude-code")
      .option("--wait", "answer only once the memory's vector exists (for scripts)"),
  ).action(
    action(async (ctx, words: string[], opts: FieldOptions & { provenance?: number; session?: string; agent?: string; wait?: boolean }) => {
      const { memory, contradictions } = await ctx.clients.memory.save({
        content: words.join(" "),
        kind: opts.kind,
        project: opts.project,
        cwd: process.cwd(),
        problem: opts.problem,
        solution: opts.solution,
        concepts: opts.concepts,
        files: opts.files,
        tags: opts.tags,
        confidence: opts.confidence,
        provenance: opts.provenance,
        tier: opts.tier,
        pinned: opts.pinned,
        importance: opts.importance,
        valence: opts.valence,
        intensity: opts.intensity,
        sessionId: opts.session,
        sourceAgent: opts.agent,
        expireTime: opts.expires && timestampFromDate(opts.expires),
        reviewTime: opts.review && timestampFromDate(opts.review),
        waitForVector: opts.wait,
      });
      if (!memory) throw new Error("the daemon returned no memory");
      if (ctx.json) ctx.printJson(memoryJson(memory));
      else for (const line of [`saved ${memory.id} in ${memory.project}`, ...contradictionNotes(contradictions)]) ctx.print(line);
    }),
  );

  program
    .command("search")
    .description("find memories by keywords, identifiers, paths or error codes")
    .argument("<query...>", "what to look for")
    .option("-p, --project <name>", "search this project (default: the current directory's) plus global")
    .option("-a, --all-projects", "search every project")
    .option("--exclude-global", "leave out user-wide memories")
    .option("-k, --kind <kinds>", "only these kinds", enumListParser(MemoryKindSchema))
    .option("-s, --status <statuses>", "only these statuses (default active)", enumListParser(MemoryStatusSchema))
    .option("-n, --limit <n>", "how many results (1-100, default 10)", intParser)
    .addOption(
      new Option("-m, --mode <mode>", "hybrid (default: keyword + meaning + entities), keyword or vector")
        .choices(enumNames(SearchModeSchema))
        .argParser(enumParser(SearchModeSchema))
        .default(SearchMode.HYBRID, "hybrid"),
    )
    .option("--explain", "show how each score came about")
    .action(
      action(async (ctx, words: string[], opts: {
        project?: string; allProjects?: boolean; excludeGlobal?: boolean; kind?: number[]; status?: number[]; limit?: number; mode?: number;
        explain?: boolean;
      }) => {
        const res = await ctx.clients.memory.search({
          query: words.join(" "),
          project: opts.project,
          cwd: process.cwd(),
          allProjects: opts.allProjects,
          excludeGlobal: opts.excludeGlobal,
          kinds: opts.kind,
          statuses: opts.status,
          limit: opts.limit,
          mode: opts.mode,
          explain: opts.explain,
        });
        if (res.vectorsSkipped !== "") ctx.note(vectorsSkippedNote(res.vectorsSkipped));
        if (ctx.json) {
          ctx.printJson(res.results.map((r) => ({
            score: r.score,
            memory: r.memory && memoryJson(r.memory),
            explanation: r.explanation && toJson(ScoreExplanationSchema, r.explanation),
          })));
          return;
        }
        if (res.results.length === 0) ctx.print("no memories match");
        for (const r of res.results) {
          if (!r.memory) continue;
          ctx.print(formatMemoryLine(r.memory, r.score));
          if (r.explanation) ctx.print(formatExplanation(r.explanation));
        }
      }),
    );

  program
    .command("recall")
    .description("what an agent should keep in mind: 1 summaries, 2 full memories, 3 plus related ones")
    .argument("[query...]", "what you are working on")
    .option("-p, --project <name>", "the current project (default: derived from the current directory)")
    .option("-d, --depth <1-3>", "1 recognition, 2 recall, 3 association (default 1)", intParser)
    .option("-n, --limit <n>", "at most this many memories (default 5)", intParser)
    .option("--max-tokens <n>", "approximate token budget for the answer", intParser)
    .option("--ids <ids>", "at depth 2: ids picked from a depth-1 answer, comma-separated", listParser)
    .option("--explain", "show how each score came about")
    .action(
      action(async (ctx, words: string[], opts: { project?: string; depth?: number; limit?: number; maxTokens?: number; ids?: string[]; explain?: boolean }) => {
        const res = await ctx.clients.memory.recall({
          query: words.join(" "),
          project: opts.project,
          cwd: process.cwd(),
          depth: opts.depth,
          limit: opts.limit,
          maxTokens: opts.maxTokens,
          ids: opts.ids,
          explain: opts.explain,
          via: "memctl recall",
        });
        if (res.vectorsSkipped !== "") ctx.note(vectorsSkippedNote(res.vectorsSkipped));
        if (ctx.json) {
          ctx.printJson(toJson(RecallResponseSchema, res));
          return;
        }
        if (res.memories.length === 0) ctx.print("nothing to recall");
        for (const item of res.memories) {
          const tag = item.associated ? "  (associated)" : "";
          ctx.print(item.memory ? `${formatMemoryLine(item.memory, item.score)}${tag}` : `${item.id}  ${item.project}  ${item.summary}${tag}`);
          if (item.explanation) ctx.print(formatExplanation(item.explanation));
        }
        if (res.truncated) ctx.print(`(more matched; ${res.tokens} tokens used)`);
      }),
    );

  program
    .command("get")
    .description("show one memory in full")
    .argument("<id>", "the memory's id")
    .action(
      action(async (ctx, id: string) => {
        const { memory } = await ctx.clients.memory.get({ id });
        if (!memory) throw new Error("the daemon returned no memory");
        ctx.print(ctx.json ? JSON.stringify(memoryJson(memory), null, 2) : formatMemoryFull(memory));
      }),
    );

  fieldOptions(
    program
      .command("update")
      .description("change fields of a memory; fields not given stay as they are")
      .argument("<id>", "the memory's id")
      .option("--content <text>", "new content")
      .option("--unpin", "let it decay again"),
  ).action(
    action(async (ctx, id: string, opts: FieldOptions & { content?: string; unpin?: boolean }) => {
      const list = (values?: string[]) => (values === undefined ? undefined : create(StringListSchema, { values }));
      const req: MessageInitShape<typeof UpdateRequestSchema> = {
        id,
        content: opts.content,
        kind: opts.kind,
        project: opts.project,
        problem: opts.problem,
        solution: opts.solution,
        concepts: list(opts.concepts),
        files: list(opts.files),
        tags: list(opts.tags),
        confidence: opts.confidence,
        tier: opts.tier,
        pinned: opts.pinned ? true : opts.unpin ? false : undefined,
        importance: opts.importance,
        valence: opts.valence,
        intensity: opts.intensity,
        expireTime: opts.expires && timestampFromDate(opts.expires),
        reviewTime: opts.review && timestampFromDate(opts.review),
      };
      const { memory, contradictions } = await ctx.clients.memory.update(req);
      if (!memory) throw new Error("the daemon returned no memory");
      if (ctx.json) ctx.printJson(memoryJson(memory));
      else for (const line of [`updated ${memory.id}`, ...contradictionNotes(contradictions)]) ctx.print(line);
    }),
  );

  program
    .command("archive")
    .description("retire a memory (it stays stored and exportable)")
    .argument("<id>", "the memory's id")
    .option("-r, --reason <text>", "why it no longer holds", "")
    .action(
      action(async (ctx, id: string, opts: { reason: string }) => {
        const { memory } = await ctx.clients.memory.archive({ id, reason: opts.reason });
        if (!memory) throw new Error("the daemon returned no memory");
        if (ctx.json) ctx.printJson(memoryJson(memory));
        else ctx.print(`archived ${memory.id}`);
      }),
    );

  program
    .command("list")
    .description("list memories, newest first")
    .option("-p, --project <name>", "only this project (default: every project)")
    .option("-k, --kind <kinds>", "only these kinds", enumListParser(MemoryKindSchema))
    .option("-s, --status <statuses>", "only these statuses (default active)", enumListParser(MemoryStatusSchema))
    .option("--session <id>", "only this session's memories")
    .option("--pinned", "only pinned memories")
    .option("-n, --limit <n>", "how many per page (1-1000, default 50)", intParser)
    .option("--page-token <token>", "continue from a previous page")
    .action(
      action(async (ctx, opts: {
        project?: string; kind?: number[]; status?: number[]; session?: string; pinned?: boolean; limit?: number; pageToken?: string;
      }) => {
        const res = await ctx.clients.memory.list({
          project: opts.project,
          kinds: opts.kind,
          statuses: opts.status,
          sessionId: opts.session,
          pinnedOnly: opts.pinned,
          pageSize: opts.limit,
          pageToken: opts.pageToken,
        });
        if (ctx.json) {
          ctx.printJson({ memories: res.memories.map(memoryJson), nextPageToken: res.nextPageToken });
          return;
        }
        if (res.memories.length === 0) ctx.print("no memories");
        for (const m of res.memories) ctx.print(formatMemoryLine(m));
        if (res.nextPageToken) ctx.print(`more: memctl list --page-token ${res.nextPageToken}`);
      }),
    );

  program
    .command("checkpoint")
    .description("record a finished task as one structured memory")
    .argument("<summary...>", "what was done")
    .option("--problem <text>", "the problem that was faced")
    .option("--solution <text>", "how it was solved")
    .option("-f, --files <list>", "files that changed, comma-separated or repeated", listParser)
    .option("-c, --concepts <list>", "topics, comma-separated or repeated", listParser)
    .option("-p, --project <name>", "project name (default: derived from the current directory)")
    .addOption(new Option("-k, --kind <kind>", "kind to store it as (default episode)").choices(enumNames(MemoryKindSchema)).argParser(enumParser(MemoryKindSchema)))
    .option("--session <id>", "agent session id")
    .option("--agent <name>", "agent name")
    .action(
      action(async (ctx, words: string[], opts: {
        problem?: string; solution?: string; files?: string[]; concepts?: string[]; project?: string; kind?: number; session?: string; agent?: string;
      }) => {
        const { memory, contradictions } = await ctx.clients.memory.checkpoint({
          summary: words.join(" "),
          problem: opts.problem,
          solution: opts.solution,
          files: opts.files,
          concepts: opts.concepts,
          project: opts.project,
          cwd: process.cwd(),
          kind: opts.kind,
          sessionId: opts.session,
          sourceAgent: opts.agent,
        });
        if (!memory) throw new Error("the daemon returned no memory");
        if (ctx.json) ctx.printJson(memoryJson(memory));
        else for (const line of [`checkpoint saved as ${memory.id} in ${memory.project}`, ...contradictionNotes(contradictions)]) ctx.print(line);
      }),
    );
}
