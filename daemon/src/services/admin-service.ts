import { ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { AdminService, InstructionsChannel, ReindexTarget } from "../../../gen/memd/v1/admin_service_pb.js";
import { InvalidInputError, UnavailableError } from "../errors.js";
import type { CappedChatModel } from "../llm/spend-cap.js";
import { importMemories } from "../commands/import-memories.js";
import { purgeArchived } from "../commands/purge-archived.js";
import type { MaintenanceRunRecord } from "../maintenance/maintenance.js";
import { kindToPb, memoryFromPb, memoryToPb, timeToPb } from "./convert.js";
import { decayOverDays } from "../lifecycle/decay.js";
import { DAY_MS } from "../lifecycle/half-lives.js";
import { MEMORY_KINDS } from "../memory/memory.js";
import { boundedCount } from "./bounded-count.js";
import type { ServiceDeps } from "./deps.js";
import { embedderStatus, healthStatus } from "./health.js";
import { rulesDueForReview } from "./review.js";
import { instructionsText } from "./instructions.js";
import { namedProjectFilter } from "./project-resolver.js";

/** DescribeDecay's defaults and bound: a year, drawn for a saved memory's default confidence. */
const DEFAULT_DECAY_DAYS = 365;
const MAX_DECAY_DAYS = 3650;
const DEFAULT_DECAY_CONFIDENCE = 0.5;
/** Timeline's default and bound, in days. */
const DEFAULT_TIMELINE_DAYS = 30;
const MAX_TIMELINE_DAYS = 3650;

/** Memories whose entity links and hash a keyword reindex derives again per turn of the event loop: about 10 ms of work. */
const RELINK_STEP = 100;

export function createAdminService(deps: ServiceDeps): ServiceImpl<typeof AdminService> {
  const { store } = deps;
  return {
    health() {
      return { health: healthStatus(deps) };
    },

    timeline(req) {
      const days = boundedCount("days", req.days, DEFAULT_TIMELINE_DAYS, MAX_TIMELINE_DAYS);
      const project = namedProjectFilter(deps.resolveProject, req.project);
      const today = Math.floor(deps.now() / DAY_MS) * DAY_MS;
      const since = today - (days - 1) * DAY_MS;
      const byDay = new Map<string, { key: string; count: bigint }[]>();
      for (let at = since; at <= today; at += DAY_MS) byDay.set(new Date(at).toISOString().slice(0, 10), []);
      for (const row of store.eventsPerDay(since, project)) byDay.get(row.day)?.push({ key: row.action, count: BigInt(row.count) });
      return { days: [...byDay].map(([day, counts]) => ({ day, counts })) };
    },

    describeDecay(req) {
      const days = boundedCount("days", req.days, DEFAULT_DECAY_DAYS, MAX_DECAY_DAYS);
      const confidence = req.confidence ?? DEFAULT_DECAY_CONFIDENCE;
      if (!(confidence >= 0 && confidence <= 1)) throw new InvalidInputError(`confidence must be between 0 and 1, got ${confidence}`);
      return {
        confidence,
        curves: MEMORY_KINDS.map((kind) => ({
          kind: kindToPb(kind),
          halfLifeDays: deps.halfLives[kind] / DAY_MS,
          weights: decayOverDays(kind, confidence, days, deps.halfLives),
        })),
      };
    },

    stats(req) {
      const project = namedProjectFilter(deps.resolveProject, req.project);
      const stats = store.stats(project);
      const counts = (record: Record<string, number>) =>
        Object.entries(record).map(([key, count]) => ({ key, count: BigInt(count) }));
      return {
        total: BigInt(stats.total),
        byStatus: counts(stats.byStatus),
        byKind: counts(stats.byKind),
        byProject: counts(stats.byProject),
        databaseBytes: BigInt(stats.databaseBytes),
        schemaVersion: stats.schemaVersion,
        embedder: embedderStatus(deps),
        ledger: [
          ...counts({ ...store.ledger(project) }),
          { key: "review", count: BigInt(rulesDueForReview(store, project, deps.now()).length) },
        ],
        llm: deps.llm ? llmUsage(deps.llm) : undefined,
        lastMaintenance: maintenanceRun(deps.maintenance.lastRun()),
      };
    },

    async *export(req, ctx) {
      const project = namedProjectFilter(deps.resolveProject, req.project);
      for (const memory of store.exportAll(project)) {
        // An export cut short must not end like a whole one.
        if (ctx.signal.aborted) throw stopped(ctx.signal, "export");
        yield { memory: memoryToPb(memory) };
      }
    },

    import(req) {
      return importMemories(deps, req.memories, memoryFromPb, (m) => m.id || "no id");
    },

    async clean(req) {
      const archived = await deps.maintenance.clean(req.dryRun);
      return { archived, dryRun: req.dryRun };
    },

    async consolidate(req) {
      const merged = await deps.maintenance.consolidate(req.dryRun);
      return {
        consolidations: merged.map((c) => ({ memory: memoryToPb(c.memory), originalIds: c.originalIds })),
        dryRun: req.dryRun,
      };
    },

    purge(req) {
      const { deleted, backupPath } = purgeArchived(deps, deps.daemon.backupDir, req.confirm, deps.now());
      return { deleted: BigInt(deleted), backupPath };
    },

    async *reindex(req, ctx) {
      const target = req.target;
      if (ReindexTarget[target] === undefined) {
        throw new InvalidInputError(`target has unknown value ${target}; use vectors or keyword`);
      }
      if (target !== ReindexTarget.VECTORS) {
        const total = BigInt(store.stats().total);
        // Links and hashes a step per turn of the event loop, so other calls go on; then the index.
        let done = 0n;
        for (const count of store.relinkInSteps(RELINK_STEP)) {
          done += BigInt(count);
          // The full count is reported once the index is rebuilt; memories saved meanwhile are not counted.
          yield { target: ReindexTarget.KEYWORD, done: total > 0n && done >= total ? total - 1n : done, total };
          await new Promise((resolve) => setImmediate(resolve));
          if (ctx.signal.aborted) throw stopped(ctx.signal, "keyword reindex");
        }
        store.rebuildKeywordIndex();
        yield { target: ReindexTarget.KEYWORD, done: total, total };
      }
      if (target !== ReindexTarget.KEYWORD) {
        if (!deps.embeddings) throw new UnavailableError("embeddings are off (MEMD_EMBEDDER=none): there are no vectors to rebuild");
        for await (const progress of deps.embeddings.reindexVectors(ctx.signal)) {
          yield { target: ReindexTarget.VECTORS, done: BigInt(progress.done), total: BigInt(progress.total), lastError: progress.lastError };
        }
        if (ctx.signal.aborted) throw stopped(ctx.signal, "vector reindex");
      }
    },

    instructions(req) {
      const channel = req.channel === InstructionsChannel.UNSPECIFIED ? InstructionsChannel.CLI : req.channel;
      if (InstructionsChannel[channel] === undefined) {
        throw new InvalidInputError(`channel has unknown value ${req.channel}; use cli, curl or mcp`);
      }
      return { text: instructionsText(channel, deps.daemon.socketPath) };
    },
  };
}

/** The language model and today's spend, as Stats reports them. */
function llmUsage(llm: CappedChatModel) {
  const today = llm.spendToday();
  return {
    provider: llm.provider,
    model: llm.model,
    day: today.day,
    tokensToday: BigInt(today.usedTokens),
    callsToday: BigInt(today.calls),
    dailyCapTokens: BigInt(today.capTokens),
  };
}

/** Why a stream stopped early, with its code: past its deadline, abandoned by its caller, or cut short by shutdown. */
function stopped(signal: AbortSignal, what: string): ConnectError {
  const cause = ConnectError.from(signal.reason);
  return new ConnectError(`${what} stopped before it was done: ${cause.rawMessage}`, cause.code, undefined, undefined, cause);
}

function maintenanceRun(run: MaintenanceRunRecord | null) {
  return run === null ? undefined : { endTime: timeToPb(run.endedAt), trigger: run.trigger, consolidated: run.consolidated, archived: run.archived, error: run.error };
}
