import { create } from "@bufbuild/protobuf";
import {
  EmbedderModelState, EmbedderState, type EmbedderStatus, EmbedderStatusSchema, type HealthStatus, HealthStatusSchema,
} from "../../../gen/memd/v1/memory_service_pb.js";
import type { ServiceDeps } from "./deps.js";

export function healthStatus(deps: ServiceDeps): HealthStatus {
  return create(HealthStatusSchema, {
    ok: true,
    version: deps.daemon.version,
    schemaVersion: deps.store.schemaVersion,
    uptimeSeconds: BigInt(Math.floor((deps.now() - deps.daemon.startedAt) / 1000)),
    pid: deps.daemon.pid,
    home: deps.daemon.home,
    embedder: embedderStatus(deps),
    contradictionChecksPending: BigInt(deps.contradictions.importsPending),
  });
}

const STATES = { idle: EmbedderState.IDLE, ready: EmbedderState.READY, failing: EmbedderState.FAILING } as const;
const MODEL_STATES = {
  unloaded: EmbedderModelState.UNLOADED,
  loading: EmbedderModelState.LOADING,
  loaded: EmbedderModelState.LOADED,
  failed: EmbedderModelState.FAILED,
} as const;

export function embedderStatus(deps: ServiceDeps): EmbedderStatus {
  if (deps.embeddings === null) {
    return create(EmbedderStatusSchema, { provider: "none", reason: "embeddings are turned off (MEMD_EMBEDDER=none): keyword search only" });
  }
  const status = deps.embeddings.status();
  return create(EmbedderStatusSchema, {
    provider: status.space.provider,
    model: status.space.model,
    dimensions: status.space.dimensions,
    reason: status.reason,
    state: STATES[status.state],
    queueDepth: BigInt(status.queueDepth),
    lastError: status.lastError,
    reindexing: status.reindexing,
    modelState: status.model ? MODEL_STATES[status.model.state] : EmbedderModelState.UNSPECIFIED,
    loadError: status.model?.loadError ?? "",
    failedLoads: status.model?.failedLoads ?? 0,
  });
}
