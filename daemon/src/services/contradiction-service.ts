import type { ServiceImpl } from "@connectrpc/connect";
import { ContradictionService } from "../../../gen/memd/v1/contradiction_service_pb.js";
import { InvalidInputError } from "../errors.js";
import { refuseSecretIn } from "../memory/identifier-secrets.js";
import { localProjects } from "../memory/memory.js";
import { boundedCount } from "./bounded-count.js";
import { contradictionToPb, resolutionFromPb } from "./contradiction-convert.js";
import { memoryToPb } from "./convert.js";
import type { ServiceDeps } from "./deps.js";
import { pageByRowId } from "./page-token.js";
import { namedProjectFilter } from "./project-resolver.js";

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 500;

/** The queue of contradictions found on write, and settling them. */
export function createContradictionService(deps: ServiceDeps): ServiceImpl<typeof ContradictionService> {
  const { store } = deps;
  return {
    listContradictions(req) {
      const pageSize = boundedCount("page_size", req.pageSize, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
      const projects = localProjects(namedProjectFilter(deps.resolveProject, req.project));
      const { rows, nextPageToken } = pageByRowId(req.pageToken, pageSize, (beforeId, limit) => store.contradictions.list({ projects, settled: req.includeSettled, limit, beforeId }));
      return {
        contradictions: rows.map((c) => contradictionToPb(c, store)),
        nextPageToken,
        openCount: store.contradictions.countOpen(projects),
      };
    },

    settleContradiction(req) {
      if (req.id === 0) throw new InvalidInputError("id is missing: name the contradiction to settle (memctl contradictions lists them)");
      const resolution = resolutionFromPb(req.resolution);
      const sessionId = refuseSecretIn("session_id", req.sessionId.trim());
      const settled = store.contradictions.settle(req.id, resolution, deps.now(), sessionId);
      const superseded = settled.superseded === undefined ? undefined : store.get(settled.superseded);
      return { contradiction: contradictionToPb(settled.contradiction, store), superseded: superseded ? memoryToPb(superseded) : undefined };
    },
  };
}
