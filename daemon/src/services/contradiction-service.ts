import type { ServiceImpl } from "@connectrpc/connect";
import { ContradictionService } from "../../../gen/memd/v1/contradiction_service_pb.js";
import { InvalidInputError } from "../errors.js";
import { refuseSecretIn } from "../memory/identifier-secrets.js";
import { localProjects } from "../memory/memory.js";
import { boundedCount } from "./bounded-count.js";
import { contradictionToPb, resolutionFromPb } from "./contradiction-convert.js";
import { memoryToPb } from "./convert.js";
import type { ServiceDeps } from "./deps.js";
import { decodePageToken, encodePageToken } from "./page-token.js";
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
      const after = decodePageToken(req.pageToken);
      const beforeId = after === undefined ? undefined : Number(after);
      if (beforeId !== undefined && !Number.isSafeInteger(beforeId)) {
        throw new InvalidInputError("page_token is not one this daemon issued: pass next_page_token unchanged");
      }
      // One extra row tells whether another page follows.
      const rows = store.contradictions.list({ projects, settled: req.includeSettled, limit: pageSize + 1, beforeId });
      const page = rows.slice(0, pageSize);
      const last = page.at(-1);
      return {
        contradictions: page.map((c) => contradictionToPb(c, store)),
        nextPageToken: rows.length > pageSize && last ? encodePageToken(String(last.id)) : "",
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
