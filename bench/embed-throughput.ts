import os from "node:os";
import { createLocalEmbedder } from "../daemon/src/embed/local-embedder.js";
import { type LatencySummary, measureSequential } from "./latency.js";
import { measureTextLengths, memoryTexts, type TextLengths } from "./memory-texts.js";
import type { SyntheticCorpus } from "./synthetic-memories.js";
import { count, formatTable, numericColumns } from "./table.js";

/** From the issue: what the offline model should embed on a two-core machine. Reported, never asserted. */
export const EMBED_TARGET_PER_SECOND = 250;
/** Texts per call when batched: the daemon's pipeline embeds up to 32 memories a call. */
export const EMBED_BATCH = 32;

export interface EmbedRate {
  memories: number;
  seconds: number;
  perSecond: number;
}

export interface EmbedThroughputResult {
  model: string;
  dimensions: number;
  /** Worker threads the embedder may use: its default, as in the daemon. */
  threads: number;
  texts: TextLengths;
  /** The first call, in which a worker thread starts and loads the model. */
  loadSeconds: number;
  /** One text per call, one call at a time: a single worker thread does the work. */
  single: EmbedRate & { latency: LatencySummary };
  /** EMBED_BATCH texts per call, which the embedder shares among its threads. */
  batched: EmbedRate & { batchSize: number };
  /** One search query (1-4 terms) per call, as the daemon embeds it for VECTOR and HYBRID search. */
  query: LatencySummary & { meanChars: number };
  targetPerSecond: number;
}

export interface EmbedThroughputOptions {
  /** Texts embedded one per call. */
  single: number;
  /** Texts embedded EMBED_BATCH per call. */
  batched: number;
  /** Search queries embedded one per call. */
  queries: number;
  textSeed: number;
  querySeed: number;
  progress: (line: string) => void;
}

const QUERY_WARMUP = 10;

/**
 * The offline model as the daemon runs it (createLocalEmbedder with its defaults: worker
 * threads in this process), on synthetic memories: memories per second one per call and
 * batched, and the time to embed one search query.
 */
export async function measureEmbedThroughput(corpus: SyntheticCorpus, options: EmbedThroughputOptions): Promise<EmbedThroughputResult> {
  const { progress } = options;
  // Distinct texts for each run and warm-up, so that nothing is embedded twice.
  const texts = memoryTexts(corpus, options.textSeed, 1 + EMBED_BATCH + options.single + options.batched);
  const warmup = texts.slice(0, 1 + EMBED_BATCH);
  const singles = texts.slice(1 + EMBED_BATCH, 1 + EMBED_BATCH + options.single);
  const batches = texts.slice(1 + EMBED_BATCH + options.single);
  const nextQuery = corpus.queries(options.querySeed);
  const queries = Array.from({ length: QUERY_WARMUP + options.queries }, () => nextQuery().query);
  const lengths = await measureTextLengths([...singles, ...batches]);

  const embedder = createLocalEmbedder();
  try {
    progress("local model: loading (first call)...");
    let started = performance.now();
    await embedder.embed(warmup.slice(0, 1), "document");
    const loadSeconds = (performance.now() - started) / 1000;

    progress(`local model: ${count(singles.length)} texts, one per call...`);
    started = performance.now();
    const singleLatency = await measureSequential(singles.length, 0, (i) => embedder.embed([singles[i] as string], "document"));
    const singleSeconds = (performance.now() - started) / 1000;

    progress(`local model: ${count(options.queries)} search queries, one per call...`);
    const query = await measureSequential(options.queries, QUERY_WARMUP, (i) => embedder.embed([queries[i] as string], "query"));

    // Untimed: the first batch starts the second worker thread, which loads its own copy of the model.
    progress(`local model: ${count(batches.length)} texts, ${EMBED_BATCH} per call...`);
    await embedder.embed(warmup.slice(1), "document");
    started = performance.now();
    for (let first = 0; first < batches.length; first += EMBED_BATCH) {
      await embedder.embed(batches.slice(first, first + EMBED_BATCH), "document");
    }
    const batchedSeconds = (performance.now() - started) / 1000;

    const measuredQueries = queries.slice(QUERY_WARMUP);
    return {
      model: embedder.space.model,
      dimensions: embedder.space.dimensions,
      // The embedder's own default; it does not say how many threads it chose.
      threads: Math.min(2, os.availableParallelism()),
      texts: lengths,
      loadSeconds,
      single: { ...rate(singles.length, singleSeconds), latency: singleLatency },
      batched: { ...rate(batches.length, batchedSeconds), batchSize: EMBED_BATCH },
      query: { ...query, meanChars: measuredQueries.reduce((n, q) => n + q.length, 0) / Math.max(1, measuredQueries.length) },
      targetPerSecond: EMBED_TARGET_PER_SECOND,
    };
  } finally {
    await embedder.close();
  }
}

function rate(memories: number, seconds: number): EmbedRate {
  return { memories, seconds, perSecond: seconds > 0 ? memories / seconds : 0 };
}

export function formatEmbedThroughput(r: EmbedThroughputResult): string {
  const t = r.texts;
  const target = (perSecond: number) =>
    `>= ${r.targetPerSecond}/s on 2 cores: ${perSecond >= r.targetPerSecond ? "met" : "MISSED"}`;
  const table = formatTable([...numericColumns(["calls", "memories", "seconds", "memories/s", "ms/call p50", "ms/call p99"]), { title: "target" }], [
    [
      "one text per call",
      count(r.single.memories),
      r.single.seconds.toFixed(1),
      r.single.perSecond.toFixed(1),
      r.single.latency.p50Ms.toFixed(1),
      r.single.latency.p99Ms.toFixed(1),
      target(r.single.perSecond),
    ],
    [
      `${r.batched.batchSize} texts per call`,
      count(r.batched.memories),
      r.batched.seconds.toFixed(1),
      r.batched.perSecond.toFixed(1),
      "-",
      "-",
      target(r.batched.perSecond),
    ],
    [
      "one search query per call",
      count(r.query.samples),
      "-",
      "-",
      r.query.p50Ms.toFixed(1),
      r.query.p99Ms.toFixed(1),
      "-",
    ],
  ]);
  return [
    `Local embedding model (${r.model}, ${r.dimensions} dimensions), in this process as the daemon runs it: ` +
      `createLocalEmbedder, up to ${r.threads} worker threads`,
    `memory texts as the daemon embeds them (content, concepts, files): mean ${t.meanChars.toFixed(0)} characters, ` +
      `${t.meanWords.toFixed(0)} words${t.meanTokens === null ? "" : `, ${t.meanTokens.toFixed(0)} tokens`}; ` +
      `search queries: 1-4 terms, mean ${r.query.meanChars.toFixed(0)} characters`,
    `model load (first call, not counted): ${r.loadSeconds.toFixed(1)} s; one text per call keeps one thread busy, ` +
      `${r.batched.batchSize} per call all of them`,
    "",
    table,
  ].join("\n");
}
