import { formatResidentMemory, type ResidentMemoryRow } from "./resident-memory.js";
import { DEFAULT_TUNING } from "../daemon/src/vectors/binary-index.js";
import type { Section } from "./bench-options.js";
import { type EmbedThroughputResult, formatEmbedThroughput } from "./embed-throughput.js";
import { formatHookLatency, type HookLatencyResult } from "./hook-latency.js";
import { formatHybridLatency, type HybridLatencyResult } from "./hybrid-latency.js";
import { formatMcpStartup, type McpStartupResult } from "./mcp-startup.js";
import { formatVault, type VaultResult } from "./vault-latency.js";
import { formatViewer, type ViewerResult } from "./viewer-latency.js";
import { formatOnnx, type OnnxResult } from "./onnx-throughput.js";
import { formatOutsideLock, type OutsideLockResult } from "./outside-lock.js";
import { formatQueueDrain, type QueueDrainResult } from "./queue-drain.js";
import { formatSocketLatency, type SocketLatencyResult } from "./socket-latency.js";
import type { VectorKnnRow } from "./vector-knn.js";
import { formatVectorTable } from "./vector-report.js";

export interface BenchReport {
  environment: {
    node: string;
    platform: string;
    cpus: number;
    cpuModel: string;
    /** One-minute load average before and after: other work on the machine skews every number. */
    loadAverage: { start: number; end: number };
  };
  vocabularySize: number;
  /** The parts that ran; the others are null. */
  sections: Section[];
  save: SocketLatencyResult | null;
  lock: OutsideLockResult | null;
  embed: EmbedThroughputResult | null;
  onnx: OnnxResult | null;
  drain: QueueDrainResult | null;
  vectors: { dimensions: number; queries: number; rows: VectorKnnRow[] } | null;
  hybrid: HybridLatencyResult | null;
  hooks: HookLatencyResult | null;
  memory: ResidentMemoryRow[] | null;
  mcp: McpStartupResult | null;
  vault: VaultResult | null;
  viewer: ViewerResult | null;
  /** Wall time of each part that ran. */
  seconds: Partial<Record<Section, number>>;
  totalSeconds: number;
}

const TITLES: Record<Section, string> = {
  save: "Save, Get and keyword Search latency",
  lock: "Reads while another process holds the write lock (real daemon)",
  embed: "Local embedding throughput",
  onnx: "ONNX embedder throughput and memory (same-shape random-weight models)",
  drain: "Embedding queue drain (real daemon, local model)",
  vectors: "Vector KNN (in-process index)",
  hybrid: "Hybrid search latency (real daemon, stand-in embedder)",
  hooks: "Claude Code hook: UserPromptSubmit end to end, and failing open",
  memory: "Daemon memory with the default embedder and the old one",
  mcp: "MCP server start-up",
  vault: "The vault: Markdown files written, edits read back, the database rebuilt (real daemons)",
  viewer: "The web viewer in a real browser",
};

/** The report as plain text: the setting, then one titled part per section that ran, in SECTIONS order. */
export function formatReport(report: BenchReport, order: readonly Section[]): string {
  const env = report.environment;
  const parts: string[] = [
    "memd benchmark",
    `node ${env.node}, ${env.platform}, ${env.cpus} CPUs (${env.cpuModel}), ` +
      `load average ${env.loadAverage.start.toFixed(2)} at start, ${env.loadAverage.end.toFixed(2)} at end`,
    `synthetic corpus of ${report.vocabularySize.toLocaleString("en-US")} distinct terms; parts: ${order.filter((s) => report.sections.includes(s)).join(", ")}`,
  ];
  for (const section of order) {
    const body = formatSection(report, section);
    if (body === null) continue;
    const seconds = report.seconds[section];
    parts.push("", `## ${TITLES[section]}${seconds === undefined ? "" : ` (${seconds.toFixed(0)} s)`}`, "", body);
  }
  parts.push("", `total ${report.totalSeconds.toFixed(1)} s`);
  return parts.join("\n");
}

function formatSection(report: BenchReport, section: Section): string | null {
  switch (section) {
    case "save":
      return report.save && formatSocketLatency(report.save);
    case "lock":
      return report.lock && formatOutsideLock(report.lock);
    case "embed":
      return report.embed && formatEmbedThroughput(report.embed);
    case "onnx":
      return report.onnx && formatOnnx(report.onnx);
    case "drain":
      return report.drain && formatQueueDrain(report.drain);
    case "vectors":
      return (
        report.vectors &&
        [
          `${report.vectors.dimensions}-dimensional synthetic clustered embeddings (the local model's size), k = 10, ` +
            `${report.vectors.queries} searches one at a time per row, recall against brute force; as npm run bench:vectors`,
          `tuning: ${JSON.stringify(DEFAULT_TUNING)}; exact vectors come from an in-process array (SQLite in the daemon)`,
          "",
          formatVectorTable(report.vectors.rows),
        ].join("\n")
      );
    case "hybrid":
      return report.hybrid && formatHybridLatency(report.hybrid);
    case "hooks":
      return report.hooks && formatHookLatency(report.hooks);
    case "memory":
      return report.memory && formatResidentMemory(report.memory);
    case "mcp":
      return report.mcp && formatMcpStartup(report.mcp);
    case "vault":
      return report.vault && formatVault(report.vault);
    case "viewer":
      return report.viewer && formatViewer(report.viewer);
  }
}
