import { create } from "@bufbuild/protobuf";
import { type HealthStatus, HealthStatusSchema } from "../../../gen/memd/v1/memory_service_pb.js";
import type { ServiceDeps } from "./deps.js";

export function healthStatus(deps: ServiceDeps): HealthStatus {
  return create(HealthStatusSchema, {
    ok: true,
    version: deps.daemon.version,
    schemaVersion: deps.store.schemaVersion,
    uptimeSeconds: BigInt(Math.floor((deps.now() - deps.daemon.startedAt) / 1000)),
    pid: deps.daemon.pid,
    home: deps.daemon.home,
  });
}
