import { type BenchDaemon, type ResidentSet, readRssKib, startBenchDaemon, waitForContradictionChecks } from "./daemon-process.js";
import { type LatencySummary, measureSequential } from "./latency.js";
import { createMemoryLoader } from "./load-memories.js";
import { mulberry32 } from "./seeded-random.js";
import type { SyntheticCorpus } from "./synthetic-memories.js";
import { count, formatTable, mib } from "./table.js";
import { verdict } from "./targets.js";

export type Operation = "Health" | "Save" | "Get" | "Search";

/** A latency goal from the issue; reported beside the numbers; --check fails the run on a miss. */
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

export interface BuildLatency {
  /** The daemon's resident set once it answered Health on an empty store; null off Linux. */
  startRss: ResidentSet | null;
  operations: OperationResult[];
  sizes: SizeResult[];
}

export interface SocketLatencyResult extends BuildLatency {
  /** The same measurement of another build's daemon (--baseline), in the same run; null without one. */
  baseline: BuildLatency | null;
}

export interface SocketLatencySeeds {
  imported: number;
  saved: number;
  queries: number;
  ids: number;
  gets: number;
}

const CALLS = { Health: 1000, Save: 1000, Get: 2000, Search: 1000 } as const;
const WARMUP = { Health: 100, Save: 20, Get: 100, Search: 50 } as const;
// From the issue: what a hook or an agent waiting on memd should see at 100k memories.
const TARGETS = { Save: { p50MaxMs: 2 }, Search: { p50MaxMs: 5 } } as const;

/**
 * Save, Get, keyword Search and Health over the Unix socket, at each size, in a daemon whose
 * embeddings are off: with an embedder it would be embedding the imported memories in the
 * background throughout (hours of work for the local model), and what is measured would depend
 * on how far it got and on whether Ollama runs on the machine. The embedding parts measure that work.
 */
export async function measureSocketLatency(
  corpus: SyntheticCorpus,
  options: { sizes: readonly number[]; seeds: SocketLatencySeeds; baselineDaemon?: string; progress: (line: string) => void },
): Promise<SocketLatencyResult> {
  const measured = await measureBuild(corpus, options);
  const baseline = options.baselineDaemon === undefined ? null : await measureBuild(corpus, { ...options, progress: (line) => options.progress(`baseline ${line}`) }, options.baselineDaemon);
  return { ...measured, baseline };
}

async function measureBuild(
  corpus: SyntheticCorpus,
  options: { sizes: readonly number[]; seeds: SocketLatencySeeds; progress: (line: string) => void },
  daemonBin?: string,
): Promise<BuildLatency> {
  const { seeds, progress } = options;
  const daemon = await startBenchDaemon({ MEMD_EMBEDDER: "none" }, undefined, daemonBin);
  try {
    const startRss = readRssKib(daemon.pid);
    progress(`save: memd started (pid ${daemon.pid}, MEMD_HOME ${daemon.home}, MEMD_EMBEDDER=none)`);
    const loader = createMemoryLoader(corpus.memories(seeds.imported), daemon.clients.admin, seeds.ids);
    let operations: OperationResult[] = [];
    const sizes: SizeResult[] = [];
    let stored = 0;
    for (const size of options.sizes) {
      const toLoad = Math.max(0, size - stored);
      progress(`save: importing ${count(toLoad)} memories to reach ${count(size)}...`);
      const loaded = await loader.load(toLoad);
      stored += toLoad;
      // What is timed is each call, not the check of the imported memories running beside it.
      await waitForContradictionChecks(daemon, (line) => progress(`save: ${line}`));
      progress(`save:   done in ${loaded.seconds.toFixed(1)} s; measuring`);
      const measuredAt = stored;
      const results = await measureAtSize(daemon, corpus, seeds, loader.ids, stored);
      operations = operations.concat(results.operations);
      stored = results.storedAfter;
      sizes.push({ memories: measuredAt, loaded, rss: readRssKib(daemon.pid) });
    }
    return { startRss, operations, sizes };
  } finally {
    await daemon.stop();
  }
}

/**
 * Gets and Searches first, while the store holds exactly `stored` memories; Saves last,
 * because each one adds a memory.
 */
async function measureAtSize(
  daemon: BenchDaemon,
  corpus: SyntheticCorpus,
  seeds: SocketLatencySeeds,
  ids: readonly string[],
  stored: number,
): Promise<{ operations: OperationResult[]; storedAfter: number }> {
  const { memory, admin } = daemon.clients;
  // Fresh streams at every size, so that each size answers the same questions.
  const pickRandom = mulberry32(seeds.gets);
  const nextQuery = corpus.queries(seeds.queries);
  const nextMemory = corpus.memories(seeds.saved + stored);

  // Health touches no table: its latency is what any RPC costs before the store does anything.
  const health = await measureSequential(CALLS.Health, WARMUP.Health, () => admin.health({}));
  const get = await measureSequential(CALLS.Get, WARMUP.Get, () =>
    memory.get({ id: ids[Math.floor(pickRandom() * ids.length)] ?? "" }),
  );
  const search = await measureSequential(CALLS.Search, WARMUP.Search, () => memory.search(nextQuery()));
  const save = await measureSequential(CALLS.Save, WARMUP.Save, () =>
    memory.save({ ...nextMemory(), importance: 3, confidence: 0.5 }),
  );
  return {
    operations: [
      { operation: "Health", memories: stored, latency: health, target: null },
      { operation: "Save", memories: stored, latency: save, target: TARGETS.Save },
      { operation: "Get", memories: stored, latency: get, target: null },
      { operation: "Search", memories: stored, latency: search, target: TARGETS.Search },
    ],
    storedAfter: stored + WARMUP.Save + CALLS.Save,
  };
}

const LABELS: Record<Operation, string> = {
  Health: "Health (RPC floor)",
  Save: "Save (durable ack)",
  Get: "Get",
  Search: "Search (keyword)",
};
const ORDER: readonly Operation[] = ["Save", "Get", "Search", "Health"];

/** A latency table, then a load and memory table. */
export function formatSocketLatency(result: SocketLatencyResult): string {
  const operations = [...result.operations].sort(
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
    result.sizes.map((s) => [
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
  const baseline = result.baseline;
  const compared = baseline
    ? [
        "",
        "Against the --baseline build, measured in the same run on the same memories (p50 ms):",
        "",
        formatTable(
          [{ title: "operation" }, { title: "memories", right: true }, { title: "this build", right: true }, { title: "baseline", right: true }, { title: "difference", right: true }],
          operations.flatMap((r) => {
            const other = baseline.operations.find((b) => b.operation === r.operation && b.memories === r.memories);
            return other ? [[LABELS[r.operation], count(r.memories), r.latency.p50Ms.toFixed(2), other.latency.p50Ms.toFixed(2), (r.latency.p50Ms - other.latency.p50Ms).toFixed(2)]] : [];
          }),
        ),
      ]
    : [];
  return [
    "Unix socket, HTTP/1.1, binary protobuf (as memctl and the MCP adapter), one call at a time; embeddings off (MEMD_EMBEDDER=none)",
    `searches are 1-4 terms scoped to one project; calls measured per size: ${samples.join(", ")}; ` +
      "Save is fsync'ed (WAL, synchronous=FULL)",
    "",
    latency,
    "",
    "Loading via AdminService.Import in batches of 1000 (load s = time to grow to this size):",
    "",
    sizes,
    "",
    `daemon RSS right after start, empty store: ${result.startRss ? `${mib(result.startRss.rssKib)} MiB` : "n/a"}`,
    ...compared,
  ].join("\n");
}

function formatTarget(result: OperationResult): string {
  if (!result.target) return "-";
  const met = result.latency.p50Ms <= result.target.p50MaxMs;
  return `p50 <= ${result.target.p50MaxMs} ms: ${verdict(met, `${result.operation} at ${result.memories} memories: p50 <= ${result.target.p50MaxMs} ms`)}`;
}
