import type { ServiceImpl } from "@connectrpc/connect";
import { AdminService, InstructionsChannel } from "../../../gen/memd/v1/admin_service_pb.js";
import { InvalidInputError } from "../errors.js";
import { validateImported } from "../memory/imported-memory.js";
import { memoryFromPb, memoryToPb } from "./convert.js";
import type { ServiceDeps } from "./deps.js";
import { healthStatus } from "./health.js";
import { instructionsText } from "./instructions.js";

const MAX_IMPORT_BATCH = 1000;

export function createAdminService(deps: ServiceDeps): ServiceImpl<typeof AdminService> {
  const { store } = deps;
  return {
    health() {
      return { health: healthStatus(deps) };
    },

    stats(req) {
      const project = req.project.trim() === "" ? undefined : deps.resolveProject({ project: req.project, cwd: "" });
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
      };
    },

    async *export(req, ctx) {
      const project = req.project.trim() === "" ? undefined : deps.resolveProject({ project: req.project, cwd: "" });
      for (const memory of store.exportAll(project)) {
        if (ctx.signal.aborted) return;
        yield { memory: memoryToPb(memory) };
      }
    },

    import(req) {
      if (req.memories.length > MAX_IMPORT_BATCH) {
        throw new InvalidInputError(
          `import carries ${req.memories.length} memories; send at most ${MAX_IMPORT_BATCH} per request`,
        );
      }
      // Validate the whole batch before writing any of it, so a bad line changes nothing.
      const records = req.memories.map((m, index) => {
        try {
          return validateImported(memoryFromPb(m), deps.limits);
        } catch (error) {
          if (error instanceof Error) error.message = `memory #${index + 1} (${m.id || "no id"}): ${error.message}`;
          throw error;
        }
      });
      return store.importMany(records);
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
