import type { MemoryLimits } from "../memory/validate.js";
import type { MemoryStore } from "../store/store.js";
import type { ProjectResolver } from "./project-resolver.js";

/** What the service handlers need; the daemon wires real values, tests may wire their own. */
export interface ServiceDeps {
  store: MemoryStore;
  resolveProject: ProjectResolver;
  now: () => number;
  newId: () => string;
  limits: MemoryLimits;
  daemon: DaemonInfo;
}

/** Facts about the running daemon that Health and Sync report. */
export interface DaemonInfo {
  version: string;
  home: string;
  socketPath: string;
  pid: number;
  startedAt: number;
}
