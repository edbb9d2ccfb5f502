import type { HalfLives } from "../lifecycle/half-lives.js";
import type { ContradictionWatch } from "../contradictions/contradiction-watch.js";
import type { EmbeddingRuntime } from "../embed/embedding-runtime.js";
import type { InjectionRecorder } from "../injections/injection-recorder.js";
import type { CappedChatModel } from "../llm/spend-cap.js";
import type { Maintenance } from "../maintenance/maintenance.js";
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
  /** Embeddings and vector search; null when turned off (MEMD_EMBEDDER=none). */
  embeddings: EmbeddingRuntime | null;
  /** Records what Brief, Suggest and Recall gave, off the request's path. */
  recorder: InjectionRecorder;
  /** Contradictions found on write: detected before a memory is stored, recorded after, judged off the request path. */
  contradictions: ContradictionWatch;
  /** Consolidation and GC, on demand and on schedule. */
  maintenance: Maintenance;
  /** Each kind's half-life (MEMD_HALF_LIVES), for DescribeDecay. */
  halfLives: HalfLives;
  /** Claude Code's user directory (~/.claude): installed skills are read from, and approved ones written to, its skills/. */
  claudeHome: string;
  /** Where pulled ONNX models live (MEMD_HOME/models) and the hub they are pulled from. */
  models: { dir: string; hub: string };
  /** The optional language model (MEMD_LLM) behind its daily spend cap, for Stats; absent or null when none is configured. */
  llm?: CappedChatModel | null;
  /** A line for the next briefing about vault files memd could not read, each told once; absent without a vault. */
  vaultNotice?: () => string | null;
}

/** Facts about the running daemon that Health and Sync report. */
export interface DaemonInfo {
  version: string;
  home: string;
  socketPath: string;
  /** Where copies of the database go before destructive operations. */
  backupDir: string;
  pid: number;
  startedAt: number;
}
