import type { ResidentSet } from "./daemon-process.js";
import type { LatencySummary } from "./latency.js";

export type Operation = "Health" | "Save" | "Get" | "Search";

/** A latency goal from the issue; reported beside the numbers, never asserted. */
export interface Target {
  p50MaxMs: number;
}

export interface OperationResult {
  operation: Operation;
  /** Memories in the store when the measurement started. */
  memories: number;
  latency: LatencySummary;
  target: Target | null;
}

export interface SizeResult {
  memories: number;
  /** Memories imported to reach this size, and how long that took. */
  loaded: { count: number; seconds: number };
  /** The daemon's resident set after measuring at this size; null off Linux. */
  rss: ResidentSet | null;
}

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
  /** The daemon's resident set once it answered Health on an empty store; null off Linux. */
  startRss: ResidentSet | null;
  operations: OperationResult[];
  sizes: SizeResult[];
  totalSeconds: number;
}

const LABELS: Record<Operation, string> = {
  Health: "Health (RPC floor)",
  Save: "Save (durable ack)",
  Get: "Get",
  Search: "Search (keyword)",
};
const ORDER: readonly Operation[] = ["Save", "Get", "Search", "Health"];

/** The report as plain text: a latency table, a load and memory table, and the setting. */
export function formatReport(report: BenchReport): string {
  const env = report.environment;
  const operations = [...report.operations].sort(
    (a, b) => ORDER.indexOf(a.operation) - ORDER.indexOf(b.operation) || a.memories - b.memories,
  );
  const latency = formatTable(
    [
      { title: "operation" },
      { title: "memories", right: true },
      { title: "p50 ms", right: true },
      { title: "p99 ms", right: true },
      { title: "target" },
    ],
    operations.map((r) => [
      LABELS[r.operation],
      count(r.memories),
      r.latency.p50Ms.toFixed(2),
      r.latency.p99Ms.toFixed(2),
      formatTarget(r),
    ]),
  );
  const sizes = formatTable(
    [
      { title: "memories", right: true },
      { title: "load s", right: true },
      { title: "loaded/s", right: true },
      { title: "daemon RSS MiB", right: true },
      { title: "peak RSS MiB", right: true },
    ],
    report.sizes.map((s) => [
      count(s.memories),
      s.loaded.seconds.toFixed(1),
      s.loaded.seconds > 0 ? count(Math.round(s.loaded.count / s.loaded.seconds)) : "-",
      s.rss ? mib(s.rss.rssKib) : "n/a",
      s.rss ? mib(s.rss.peakKib) : "n/a",
    ]),
  );
  const samples = ORDER.flatMap((op) => {
    const first = operations.find((r) => r.operation === op);
    return first ? [`${first.latency.samples} ${op}`] : [];
  });
  return [
    `memd benchmark: Unix socket, HTTP/2 (h2c), binary protobuf, one call at a time`,
    `node ${env.node}, ${env.platform}, ${env.cpus} CPUs (${env.cpuModel}), ` +
      `load average ${env.loadAverage.start.toFixed(2)} at start, ${env.loadAverage.end.toFixed(2)} at end`,
    `synthetic corpus of ${count(report.vocabularySize)} distinct terms; searches are 1-4 terms scoped to one project`,
    `calls measured per size: ${samples.join(", ")}; Save is fsync'ed (WAL, synchronous=FULL)`,
    "",
    latency,
    "",
    "Loading via AdminService.Import in batches of 1000 (load s = time to grow to this size):",
    "",
    sizes,
    "",
    `daemon RSS right after start, empty store: ${report.startRss ? `${mib(report.startRss.rssKib)} MiB` : "n/a"}`,
    `total ${report.totalSeconds.toFixed(1)} s`,
  ].join("\n");
}

function formatTarget(result: OperationResult): string {
  if (!result.target) return "-";
  const met = result.latency.p50Ms <= result.target.p50MaxMs;
  return `p50 <= ${result.target.p50MaxMs} ms: ${met ? "met" : "MISSED"}`;
}

interface Column {
  title: string;
  right?: boolean;
}

/** A Markdown table whose columns line up in a terminal too. */
function formatTable(columns: readonly Column[], rows: readonly string[][]): string {
  const widths = columns.map((c, i) => Math.max(c.title.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    `| ${cells
      .map((cell, i) => (columns[i]?.right ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join(" | ")} |`;
  const rule = `|${columns.map((c, i) => (c.right ? `${"-".repeat((widths[i] ?? 0) + 1)}:` : "-".repeat((widths[i] ?? 0) + 2))).join("|")}|`;
  return [line(columns.map((c) => c.title)), rule, ...rows.map(line)].join("\n");
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function mib(kib: number): string {
  return (kib / 1024).toFixed(1);
}
