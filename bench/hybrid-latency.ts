import { SearchMode } from "../gen/memd/v1/memory_service_pb.js";
import { type ResidentSet, readRssKib, startBenchDaemon } from "./daemon-process.js";
import { startFakeOllama } from "./fake-ollama-server.js";
import { type LatencySummary, measureSequential, summarize } from "./latency.js";
import { createMemoryLoader } from "./load-memories.js";
import { waitForEmbeddings } from "./recall-load.js";
import type { SyntheticCorpus } from "./synthetic-memories.js";
import { count, formatTable, mib, numericColumns } from "./table.js";
import { verdict } from "./targets.js";

/**
 * From the issue, for HYBRID search at 100k memories, the query's embedding excluded: judged on
 * the search's own work ("search work": after the vector, plus the keyword and graph search done
 * while the query embedded). The round trip less the reported wait hid up to the whole wait's
 * worth of lexical work, which the wait's figure took in. Reported; --check fails the run on a miss.
 */
export const HYBRID_TARGET = { p50MaxMs: 5, p99MaxMs: 20 } as const;
const CALLS = 500;
const WARMUP = 50;
const ROUND_TRIPS = 200;
const EMBED_WITHIN_MS = 15 * 60_000;
/**
 * How long the stand-in takes to answer a query's embedding. Real embedders take longer (the
 * local model 11.5 ms p50 and 7.1 ms p10 per query on this machine, the "embed" part; Ollama
 * and OpenAI a model and a network round trip), and the daemon searches keywords and the graph
 * while it waits: with an answer in microseconds, the wait it reported would be that work's.
 */
const QUERY_EMBED_MS = 5;

type ModeName = "HYBRID" | "VECTOR" | "KEYWORD";
const MODES: readonly { name: ModeName; mode: SearchMode; label: string }[] = [
  { name: "HYBRID", mode: SearchMode.HYBRID, label: "HYBRID (keyword + vector + graph, fused)" },
  { name: "VECTOR", mode: SearchMode.VECTOR, label: "VECTOR" },
  { name: "KEYWORD", mode: SearchMode.KEYWORD, label: "KEYWORD" },
];

export interface ModeLatency {
  mode: ModeName;
  /** As the client saw it: the round trip over the socket, the query's embedding included. */
  latency: LatencySummary;
  /** The same round trips less the query embedding time the daemon reported (Server-Timing "embed"). */
  withoutEmbedding: LatencySummary;
  /**
   * The daemon's search work, as if none of it ran while the query embedded: after the
   * embedding (Server-Timing "search") plus during it ("overlap", keyword and graph search).
   */
  daemonSearch: LatencySummary;
  /** The query embedding inside the daemon (Server-Timing "embed"). */
  queryEmbedding: LatencySummary;
  resultsPerSearch: number;
  /** Requests the daemon sent to the stand-in per search: how often it embeds the query. */
  embedsPerSearch: number;
}

export interface HybridLatencyResult {
  memories: number;
  /** Import, in batches of 1000. */
  loadSeconds: number;
  /** From the end of the import until the embedding queue was empty. */
  embedSeconds: number;
  leftInQueue: number;
  embedder: { provider: string; model: string; dimensions: number };
  modes: ModeLatency[];
  /** One query through the stand-in's HTTP API from this process: about what each query embedding above cost. */
  standInRoundTrip: LatencySummary;
  /** Time inside the stand-in per one-text /api/embed request (a query), over the whole run. */
  standInHandling: LatencySummary;
  /** The local model's time for one query, from the "embed" part; null when it did not run. */
  localQueryEmbedding: LatencySummary | null;
  rss: ResidentSet | null;
}

/**
 * Search latency in a daemon whose memories all have vectors. The local model would need hours
 * for 100k memories, so the daemon embeds through a stand-in for Ollama served from this
 * process (hashed bags of words, microseconds each): the figures are the daemon's search work
 * plus a loopback HTTP call per query embedding, not the model's time, which is shown apart.
 */
export async function measureHybridLatency(
  corpus: SyntheticCorpus,
  options: {
    memories: number;
    seeds: { imported: number; ids: number; queries: number };
    localQueryEmbedding: LatencySummary | null;
    progress: (line: string) => void;
  },
): Promise<HybridLatencyResult> {
  const { progress } = options;
  const fake = await startFakeOllama({ queryDelayMs: QUERY_EMBED_MS });
  try {
    const daemon = await startBenchDaemon({ MEMD_EMBEDDER: "ollama", OLLAMA_HOST: fake.host });
    try {
      const { memory, admin } = daemon.clients;
      progress(`hybrid: memd started (pid ${daemon.pid}, MEMD_EMBEDDER=ollama, OLLAMA_HOST=${fake.host} served by this process)`);
      progress(`hybrid: importing ${count(options.memories)} memories...`);
      const loader = createMemoryLoader(corpus.memories(options.seeds.imported), admin, options.seeds.ids);
      const loaded = await loader.load(options.memories);
      progress(`hybrid: imported in ${loaded.seconds.toFixed(1)} s; waiting for the embedding queue...`);
      const wait = await waitForEmbeddings(admin, EMBED_WITHIN_MS, (line) => progress(`hybrid: ${line}`));

      const modes: ModeLatency[] = [];
      for (const { name, mode } of MODES) {
        progress(`hybrid: ${CALLS} searches in ${name} mode...`);
        // A fresh stream per mode: every mode answers the same questions.
        const nextQuery = corpus.queries(options.seeds.queries);
        const requestsBefore = fake.served().requests;
        let results = 0;
        const timed = { withoutEmbedding: [] as number[], daemonSearch: [] as number[], queryEmbedding: [] as number[] };
        const latency = await measureSequential(CALLS, WARMUP, async (index) => {
          let header = "";
          const started = performance.now();
          const res = await memory.search({ ...nextQuery(), mode, limit: 10 }, { onHeader: (headers) => (header = headers.get("server-timing") ?? "") });
          const elapsed = performance.now() - started;
          // Timed without vectors, a hybrid search would pass for one that had them.
          if (res.vectorsSkipped !== "") throw new Error(`a ${name} search went without vectors (${res.vectorsSkipped}): the figures would not be a hybrid search's`);
          results += res.results.length;
          const timing = parseServerTiming(header);
          if (index < WARMUP) return;
          timed.withoutEmbedding.push(elapsed - timing.embed);
          timed.daemonSearch.push(timing.search + timing.overlap);
          timed.queryEmbedding.push(timing.embed);
        });
        modes.push({
          mode: name,
          latency,
          withoutEmbedding: summarize(timed.withoutEmbedding),
          daemonSearch: summarize(timed.daemonSearch),
          queryEmbedding: summarize(timed.queryEmbedding),
          resultsPerSearch: results / (CALLS + WARMUP),
          embedsPerSearch: (fake.served().requests - requestsBefore) / (CALLS + WARMUP),
        });
      }

      const nextQuery = corpus.queries(options.seeds.queries);
      const standInRoundTrip = await measureSequential(ROUND_TRIPS, 20, async () => {
        const res = await fetch(`${fake.host}/api/embed`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: fake.model, input: [`search_query: ${nextQuery().query}`], truncate: true }),
        });
        await res.json();
      });
      return {
        memories: options.memories,
        loadSeconds: loaded.seconds,
        embedSeconds: wait.seconds,
        leftInQueue: wait.pendingAtEnd,
        embedder: { provider: wait.provider, model: wait.model, dimensions: wait.dimensions },
        modes,
        standInRoundTrip,
        standInHandling: summarize(fake.handled().filter((r) => r.texts === 1).map((r) => r.ms)),
        localQueryEmbedding: options.localQueryEmbedding,
        rss: readRssKib(daemon.pid),
      };
    } finally {
      await daemon.stop();
    }
  } finally {
    await fake.close();
  }
}

export function formatHybridLatency(r: HybridLatencyResult): string {
  const label = (name: ModeName) => MODES.find((m) => m.name === name)?.label ?? name;
  const target = (m: ModeLatency) => {
    if (m.mode !== "HYBRID") return "-";
    const met = m.daemonSearch.p50Ms <= HYBRID_TARGET.p50MaxMs && m.daemonSearch.p99Ms <= HYBRID_TARGET.p99MaxMs;
    const goal = `search work p50 <= ${HYBRID_TARGET.p50MaxMs} ms, p99 <= ${HYBRID_TARGET.p99MaxMs} ms`;
    return `${goal}: ${verdict(met, `hybrid search: ${goal}`)}`;
  };
  const searches = formatTable(
    [
      ...numericColumns([
        "search mode", "memories", "p50 ms", "p99 ms", "less embedding p50", "less embedding p99", "search work p50", "search work p99",
        "embedding p50", "results/search", "query embeds/search",
      ]),
      { title: "target" },
    ],
    r.modes.map((m) => [
      label(m.mode),
      count(r.memories),
      m.latency.p50Ms.toFixed(2),
      m.latency.p99Ms.toFixed(2),
      m.withoutEmbedding.p50Ms.toFixed(2),
      m.withoutEmbedding.p99Ms.toFixed(2),
      m.daemonSearch.p50Ms.toFixed(2),
      m.daemonSearch.p99Ms.toFixed(2),
      m.queryEmbedding.p50Ms.toFixed(2),
      m.resultsPerSearch.toFixed(1),
      m.embedsPerSearch.toFixed(1),
      target(m),
    ]),
  );
  const embedding = formatTable(numericColumns(["query embedding", "p50 ms", "p99 ms", "in the searches above"]), [
    [`stand-in Ollama, one HTTP round trip (answers after ${QUERY_EMBED_MS} ms)`, r.standInRoundTrip.p50Ms.toFixed(2), r.standInRoundTrip.p99Ms.toFixed(2), "yes"],
    r.localQueryEmbedding
      ? ["local model (from the embed part)", r.localQueryEmbedding.p50Ms.toFixed(2), r.localQueryEmbedding.p99Ms.toFixed(2), "no"]
      : ["local model", "n/a", "n/a", 'no (run the "embed" part)'],
  ]);
  const hybrid = r.modes.find((m) => m.mode === "HYBRID");
  const lines = [
    `Hybrid search: ${count(r.memories)} synthetic memories, every one with a vector, ${CALLS} project-scoped searches per mode, limit 10`,
    `EMBEDDER IS A STAND-IN: MEMD_EMBEDDER=ollama pointed at a fake Ollama in this process (${r.embedder.model}, ${r.embedder.dimensions} dims, ` +
      `hashed bag of words, ${r.standInHandling.p50Ms.toFixed(2)} ms p50 of work per query, answered after ${QUERY_EMBED_MS} ms as a model would take longer still)`,
    "p50/p99 ms: the client's round trip over the Unix socket; less embedding: the same less the wait for the query's embedding the daemon " +
      "reports in its Server-Timing header (HYBRID searches keywords and the graph during that wait); search work: all of the daemon's " +
      'search time, as if none of it overlapped the embedding (Server-Timing "search" + "overlap"), which the target is judged on: ' +
      "the embedding wait ends when the event loop hears the vector, after any lexical work then running, so less embedding hides that work",
    `loaded by AdminService.Import in ${r.loadSeconds.toFixed(1)} s; queue empty ${r.embedSeconds.toFixed(1)} s later` +
      `${r.leftInQueue > 0 ? ` (WARNING: ${count(r.leftInQueue)} still queued)` : ""}; ` +
      `daemon RSS after the searches: ${r.rss ? `${mib(r.rss.rssKib)} MiB (peak ${mib(r.rss.peakKib)} MiB)` : "n/a"}`,
    "",
    searches,
    "",
    embedding,
  ];
  if (hybrid && r.localQueryEmbedding && hybrid.embedsPerSearch > 0) {
    const extra = hybrid.embedsPerSearch * r.localQueryEmbedding.p50Ms;
    lines.push(
      "",
      `With the local model, HYBRID would embed the query ${hybrid.embedsPerSearch.toFixed(1)} times per search: ` +
        `about ${(hybrid.withoutEmbedding.p50Ms + extra).toFixed(1)} ms at p50 (estimate: ${hybrid.withoutEmbedding.p50Ms.toFixed(2)} + ` +
        `${hybrid.embedsPerSearch.toFixed(1)} x ${r.localQueryEmbedding.p50Ms.toFixed(2)} ms)`,
    );
  }
  return lines.join("\n");
}

/** The durations in a Server-Timing header from memd: "embed;dur=X, search;dur=Y[, overlap;dur=Z]" (0 when absent). */
function parseServerTiming(header: string): { embed: number; search: number; overlap: number } {
  const duration = (name: string) => Number(new RegExp(`${name};dur=([\\d.]+)`).exec(header)?.[1] ?? 0);
  return { embed: duration("embed"), search: duration("search"), overlap: duration("overlap") };
}
