import os from "node:os";
import { parseBenchOptions, USAGE, UsageError } from "./bench-options.js";
import { type BenchDaemon, readRssKib, startBenchDaemon } from "./daemon-process.js";
import { measureSequential } from "./latency.js";
import { createMemoryLoader } from "./load-memories.js";
import { type BenchReport, formatReport, type OperationResult, type SizeResult } from "./report.js";
import { mulberry32 } from "./seeded-random.js";
import { createSyntheticCorpus, type SyntheticCorpus } from "./synthetic-memories.js";

// One seed per random stream, so that every run stores and asks exactly the same things.
const SEED = 20_240_611;
const SEEDS = { vocabulary: SEED, imported: SEED + 1, saved: SEED + 2, queries: SEED + 3, ids: SEED + 4, gets: SEED + 5 };

const CALLS = { Health: 1000, Save: 1000, Get: 2000, Search: 1000 } as const;
const WARMUP = { Health: 100, Save: 20, Get: 100, Search: 50 } as const;
// From the issue: what a hook or an agent waiting on memd should see at 100k memories.
const TARGETS = { Save: { p50MaxMs: 2 }, Search: { p50MaxMs: 5 } } as const;

async function main(): Promise<number> {
  let options;
  try {
    options = parseBenchOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`bench: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  const started = performance.now();
  const loadAtStart = os.loadavg()[0] ?? 0;
  const corpus = createSyntheticCorpus(SEEDS.vocabulary);
  const daemon = await startBenchDaemon();
  let interrupted = false;
  const stopOnSignal = () => {
    interrupted = true;
    progress("interrupted: stopping memd");
    void daemon.stop().finally(() => process.exit(130));
  };
  process.once("SIGINT", stopOnSignal);
  process.once("SIGTERM", stopOnSignal);
  const startRss = readRssKib(daemon.pid);
  let operations: OperationResult[] = [];
  const sizes: SizeResult[] = [];
  try {
    progress(`memd started (pid ${daemon.pid}, MEMD_HOME ${daemon.home})`);
    const loader = createMemoryLoader(corpus.memories(SEEDS.imported), daemon.clients.admin, SEEDS.ids);
    let stored = 0;
    for (const size of options.sizes) {
      const toLoad = Math.max(0, size - stored);
      progress(`importing ${toLoad.toLocaleString("en-US")} memories to reach ${size.toLocaleString("en-US")}...`);
      const loaded = await loader.load(toLoad);
      stored += toLoad;
      progress(`  done in ${loaded.seconds.toFixed(1)} s; measuring`);
      const measuredAt = stored;
      const results = await measureAtSize(daemon, corpus, loader.ids, stored);
      operations = operations.concat(results.operations);
      stored = results.storedAfter;
      sizes.push({ memories: measuredAt, loaded, rss: readRssKib(daemon.pid) });
    }
  } catch (error) {
    // Calls fail once the daemon is stopped on a signal; that is no error worth a stack trace.
    if (interrupted) return 130;
    throw error;
  } finally {
    process.removeListener("SIGINT", stopOnSignal);
    process.removeListener("SIGTERM", stopOnSignal);
    await daemon.stop();
  }

  const cpus = os.cpus();
  const report: BenchReport = {
    environment: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model.trim() ?? "unknown",
      loadAverage: { start: loadAtStart, end: os.loadavg()[0] ?? 0 },
    },
    vocabularySize: corpus.vocabularySize,
    startRss,
    operations,
    sizes,
    totalSeconds: (performance.now() - started) / 1000,
  };
  process.stdout.write(`${formatReport(report)}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  return 0;
}

/**
 * Gets and Searches first, while the store holds exactly `stored` memories; Saves last,
 * because each one adds a memory.
 */
async function measureAtSize(
  daemon: BenchDaemon,
  corpus: SyntheticCorpus,
  ids: readonly string[],
  stored: number,
): Promise<{ operations: OperationResult[]; storedAfter: number }> {
  const { memory, admin } = daemon.clients;
  // Fresh streams at every size, so that each size answers the same questions.
  const pickRandom = mulberry32(SEEDS.gets);
  const nextQuery = corpus.queries(SEEDS.queries);
  const nextMemory = corpus.memories(SEEDS.saved + stored);

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

/** Progress goes to stderr so that stdout holds only the report (and the JSON line). */
function progress(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
