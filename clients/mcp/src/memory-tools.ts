import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { MemoryKindSchema, MemoryStatus, ProvenanceSchema } from "../../../gen/memd/v1/memory_pb.js";
import { withContradictions } from "./contradiction-text.js";
import { enumValue } from "./enum-names.js";
import { isoTime, memoryFull, memoryJson, memoryLine, required } from "./format.js";
import {
  conceptsField, confidenceField, filesField, idField, importanceField, kindField, problemField, projectField,
  provenanceField, sessionField, solutionField, tagsField,
} from "./input-fields.js";
import type { ToolContext } from "./tool-context.js";
import { runTool, ToolFailure } from "./tool-result.js";

/** Writing and reading single memories: save, checkpoint, get, update, supersede, archive, history. */
export function registerMemoryTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "memory_save",
    {
      title: "Save a memory",
      description:
        "Save something to long-term memory so the user never has to repeat it. Save AT ONCE, without being asked, when: " +
        "the user states a preference or a standing rule (kind preference or rule; project \"global\" if it holds everywhere); " +
        "a decision is made, with its reason (kind decision); you learn a durable fact about the code or environment such as " +
        "ports, versions, where things live (kind fact); you work out how to do something non-obvious (kind procedure). " +
        "Write one or two self-contained sentences with the concrete names in them, and fill in concepts and files. " +
        "For a finished task use memory_checkpoint instead. To correct an existing memory use memory_supersede or " +
        "memory_update, not a second save. Never save secrets, tokens or passwords.",
      inputSchema: {
        content: z.string().min(1).describe("The memory: one or two self-contained sentences"),
        kind: kindField.optional(),
        project: projectField.optional(),
        problem: problemField.optional(),
        solution: solutionField.optional(),
        concepts: conceptsField.optional(),
        files: filesField.optional(),
        tags: tagsField.optional(),
        confidence: confidenceField.optional(),
        importance: importanceField.optional(),
        pinned: z.boolean().optional().describe("Never let it decay (for memories that must always hold)"),
        provenance: provenanceField.optional(),
        expires: z.iso.datetime({ offset: true }).optional().describe("When it stops being valid, ISO 8601 (e.g. 2026-12-31T00:00:00Z)"),
        session_id: sessionField.optional(),
      },
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).memory.save({
          content: args.content,
          kind: enumValue(MemoryKindSchema, args.kind),
          project: args.project,
          cwd: ctx.cwd,
          problem: args.problem,
          solution: args.solution,
          concepts: args.concepts,
          files: args.files,
          tags: args.tags,
          confidence: args.confidence,
          importance: args.importance,
          pinned: args.pinned,
          provenance: enumValue(ProvenanceSchema, args.provenance),
          expireTime: args.expires === undefined ? undefined : timestampFromDate(new Date(args.expires)),
          sessionId: args.session_id ?? ctx.sessionId,
          sourceAgent: ctx.agent(),
        });
        const memory = required(res.memory);
        if (res.mergedInto) return `already known: reinforced ${memoryLine(memory)} (nothing new saved)`;
        const staged = memory.status === MemoryStatus.STAGED
          ? "\nstaged: unconfirmed, hidden from search until the user confirms it (memory_promote) or another session says the same"
          : "";
        return withContradictions(`saved ${memoryLine(memory)}${staged}`, res.contradictions);
      }),
  );

  server.registerTool(
    "memory_checkpoint",
    {
      title: "Checkpoint a finished task",
      description:
        "Record a finished task as one structured episode memory. Call it whenever a task is done (a bug fixed, a feature " +
        "finished, an investigation concluded): a one-line summary, the problem, the solution, the files and the concepts, " +
        "so that the next session can find how it was solved.",
      inputSchema: {
        summary: z.string().min(1).describe("What was done, in a sentence or two"),
        problem: problemField.optional(),
        solution: solutionField.optional(),
        files: filesField.optional(),
        concepts: conceptsField.optional(),
        project: projectField.optional(),
        kind: kindField.optional().describe("Store it as this kind instead of episode"),
        session_id: sessionField.optional(),
      },
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).memory.checkpoint({
          summary: args.summary,
          problem: args.problem,
          solution: args.solution,
          files: args.files,
          concepts: args.concepts,
          project: args.project,
          cwd: ctx.cwd,
          kind: enumValue(MemoryKindSchema, args.kind),
          sessionId: args.session_id ?? ctx.sessionId,
          sourceAgent: ctx.agent(),
        });
        return withContradictions(`checkpoint saved: ${memoryLine(required(res.memory))}`, res.contradictions);
      }),
  );

  server.registerTool(
    "memory_get",
    {
      title: "Get a memory",
      description: "Read one memory in full by id, whatever its status (active, staged, archived or superseded).",
      inputSchema: {
        id: idField,
        format: z.enum(["text", "json"]).optional().describe("text (default) or json with every field"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const memory = required((await (await ctx.link.clients()).memory.get({ id: args.id })).memory);
        return args.format === "json" ? memoryJson(memory) : memoryFull(memory);
      }),
  );

  server.registerTool(
    "memory_update",
    {
      title: "Update a memory",
      description:
        "Fix a memory in place: only the fields you give change. Use it for typos, missing details, a wrong kind or project. " +
        "When a claim stopped being true (the team switched tools, a port changed), use memory_supersede instead so the " +
        "history keeps the old claim.",
      inputSchema: {
        id: idField,
        content: z.string().min(1).optional().describe("New content"),
        kind: kindField.optional(),
        project: projectField.optional().describe("Move it to this project"),
        problem: problemField.optional(),
        solution: solutionField.optional(),
        concepts: conceptsField.optional().describe("Replacement concepts (the whole list)"),
        files: filesField.optional().describe("Replacement files (the whole list)"),
        tags: tagsField.optional().describe("Replacement tags (the whole list)"),
        confidence: confidenceField.optional(),
        importance: importanceField.optional(),
        pinned: z.boolean().optional().describe("Pin (never decays) or unpin"),
      },
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const { id, ...fields } = args;
        if (Object.values(fields).every((v) => v === undefined)) throw new ToolFailure("nothing to change: give at least one field besides id");
        const res = await (await ctx.link.clients()).memory.update({
          id,
          content: fields.content,
          kind: enumValue(MemoryKindSchema, fields.kind),
          project: fields.project,
          problem: fields.problem,
          solution: fields.solution,
          concepts: fields.concepts && { values: fields.concepts },
          files: fields.files && { values: fields.files },
          tags: fields.tags && { values: fields.tags },
          confidence: fields.confidence,
          importance: fields.importance,
          pinned: fields.pinned,
        });
        return withContradictions(`updated ${memoryLine(required(res.memory))}`, res.contradictions);
      }),
  );

  server.registerTool(
    "memory_supersede",
    {
      title: "Correct a memory",
      description:
        "Record a correction when a memory no longer holds (the user changed their mind, a version or port changed, a " +
        "decision was reversed): the new claim is saved and linked, the old one is marked superseded. Nothing is " +
        "overwritten, so the history can still answer \"what did we believe before?\". Prefer this to saving a contradiction.",
      inputSchema: {
        id: idField.describe("The id of the memory that no longer holds"),
        content: z.string().min(1).describe("The new, correct claim"),
        reason: z.string().optional().describe("Why the old claim no longer holds"),
        kind: kindField.optional().describe("The new claim's kind (default: the old one's)"),
        concepts: conceptsField.optional().describe("Topics (default: the old one's)"),
        files: filesField.optional().describe("Files (default: the old one's)"),
        session_id: sessionField.optional(),
      },
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).memory.supersede({
          id: args.id,
          content: args.content,
          reason: args.reason,
          kind: enumValue(MemoryKindSchema, args.kind),
          concepts: args.concepts,
          files: args.files,
          sessionId: args.session_id ?? ctx.sessionId,
          sourceAgent: ctx.agent(),
        });
        return `saved ${memoryLine(required(res.memory))}\nsuperseded ${args.id}`;
      }),
  );

  server.registerTool(
    "memory_archive",
    {
      title: "Archive a memory",
      description:
        "Retire a memory that is wrong or no longer matters and has no replacement: it leaves search but stays stored " +
        "(nothing is deleted). If there is a correct replacement, use memory_supersede instead.",
      inputSchema: {
        id: idField,
        reason: z.string().optional().describe("Why it is archived; kept with the memory"),
      },
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).memory.archive({ id: args.id, reason: args.reason });
        return `archived ${memoryLine(required(res.memory))}`;
      }),
  );

  server.registerTool(
    "memory_history",
    {
      title: "History of a memory",
      description: "Show a memory's chain of claims (what was believed, and until when) and its recorded changes, oldest first.",
      inputSchema: { id: idField.describe("Any memory of the chain") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const res = await (await ctx.link.clients()).memory.history({ id: args.id });
        const chain = res.chain.map((m) => memoryLine(m));
        const events = res.events.map((e) => {
          const detail = e.detail && e.action !== "updated" ? ` (${e.detail})` : "";
          return `${isoTime(e.time) || "?"} ${e.action} ${e.memoryId}${detail}`;
        });
        return ["chain, oldest first:", ...chain, "events:", ...events].join("\n");
      }),
  );
}
