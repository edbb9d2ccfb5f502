import os from "node:os";
import { DEFAULT_DRAIN, parseBenchOptions, SECTIONS, type Section, USAGE, UsageError } from "./bench-options.js";
import { stopAllBenchDaemons } from "./daemon-process.js";
import { measureEmbedThroughput } from "./embed-throughput.js";
import { measureHookLatency } from "./hook-latency.js";
import { measureHybridLatency } from "./hybrid-latency.js";
import { measureMcpStartup } from "./mcp-startup.js";
import { measureOnnx } from "./onnx-throughput.js";
import { measureOutsideLock } from "./outside-lock.js";
import { measureQueueDrain, planDrain } from "./queue-drain.js";
import { measureResidentMemory } from "./resident-memory.js";
import { type BenchReport, formatReport } from "./report.js";
import { measureSocketLatency } from "./socket-latency.js";
import { createSyntheticCorpus } from "./synthetic-memories.js";
import { targetsExitCode } from "./targets.js";
import { runVectorKnnBench } from "./vector-knn.js";
import { measureVault } from "./vault-latency.js";
import { measureViewer } from "./viewer-latency.js";

// One seed per random stream, so that every run stores and asks exactly the same things.
const SEED = 20_240_611;
const SEEDS = {
  vocabulary: SEED,
  imported: SEED + 1,
  saved: SEED + 2,
  queries: SEED + 3,
  ids: SEED + 4,
  gets: SEED + 5,
  embedded: SEED + 6,
  drained: SEED + 7,
  prompts: SEED + 8,
};

// The default run should end within about 12 minutes; the drain runs last and gets what is left.
const RUN_BUDGET_S = 11.5 * 60;
// Starting and stopping the drain's daemon and loading its model, besides the embedding itself.
const DRAIN_OVERHEAD_S = 30;
const EMBED_SAMPLES = { single: 100, batched: 320, queries: 100 };
// From the issue: the hook is measured against a warm daemon holding 10k memories.
const HOOK_MEMORIES = 10_000;
// Memories in the daemon whose reads are timed while another process holds the write lock.
const LOCK_MEMORIES = 10_000;
// The local model's size; searches per row of the KNN table.
const VECTORS = { dimensions: 512, queries: 300 };
// Run order: the drain last, so that its default size can be fitted to the time left.
const RUN_ORDER: readonly Section[] = ["save", "lock", "embed", "onnx", "vectors", "hybrid", "hooks", "memory", "mcp", "vault", "viewer", "drain"];
// Memories in the daemons whose Save and vault latencies are timed.
const VAULT_MEMORIES = 10_000;
// From the issue: search as you type is measured at 100k memories.
const VIEWER_MEMORIES = 100_000;

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
  const elapsedSeconds = () => (performance.now() - started) / 1000;
  const loadAtStart = os.loadavg()[0] ?? 0;
  const corpus = createSyntheticCorpus(SEEDS.vocabulary);
  const cpus = os.cpus();
  const report: BenchReport = {
    environment: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model.trim() ?? "unknown",
      loadAverage: { start: loadAtStart, end: loadAtStart },
    },
    vocabularySize: corpus.vocabularySize,
    sections: RUN_ORDER.filter((s) => options.sections.has(s)),
    save: null,
    lock: null,
    embed: null,
    onnx: null,
    drain: null,
    vectors: null,
    hybrid: null,
    hooks: null,
    memory: null,
    mcp: null,
    vault: null,
    viewer: null,
    seconds: {},
    totalSeconds: 0,
  };

  let interrupted = false;
  const stopOnSignal = () => {
    interrupted = true;
    progress("interrupted: stopping memd");
    void stopAllBenchDaemons().finally(() => process.exit(130));
  };
  process.once("SIGINT", stopOnSignal);
  process.once("SIGTERM", stopOnSignal);
  try {
    for (const section of report.sections) {
      const sectionStarted = performance.now();
      progress(`--- ${section} (${elapsedSeconds().toFixed(0)} s into the run)`);
      switch (section) {
        case "save":
          report.save = await measureSocketLatency(corpus, { sizes: options.sizes, seeds: SEEDS, baselineDaemon: options.baselineDaemon, progress });
          break;
        case "lock":
          report.lock = await measureOutsideLock(corpus, {
            memories: LOCK_MEMORIES,
            seeds: { imported: SEEDS.imported, ids: SEEDS.ids, gets: SEEDS.gets, queries: SEEDS.queries, saved: SEEDS.saved },
            progress,
          });
          break;
        case "embed":
          report.embed = await measureEmbedThroughput(corpus, {
            ...EMBED_SAMPLES,
            textSeed: SEEDS.embedded,
            querySeed: SEEDS.queries,
            progress,
          });
          break;
        case "onnx":
          report.onnx = await measureOnnx(corpus, {
            textSeed: SEEDS.embedded,
            querySeed: SEEDS.queries,
            imported: SEEDS.imported,
            ids: SEEDS.ids,
            daemonMemories: options.onnxMemories,
            progress,
          });
          break;
        case "vectors": {
          const rows = await runVectorKnnBench({ sizes: options.vectorSizes, ...VECTORS, progress: (line) => progress(`vectors: ${line}`) });
          report.vectors = { ...VECTORS, rows };
          break;
        }
        case "hybrid":
          report.hybrid = await measureHybridLatency(corpus, {
            memories: options.hybridSize,
            seeds: SEEDS,
            localQueryEmbedding: report.embed?.query ?? null,
            progress,
          });
          break;
        case "hooks":
          report.hooks = await measureHookLatency(corpus, {
            memories: HOOK_MEMORIES,
            seeds: { imported: SEEDS.imported, ids: SEEDS.ids, prompts: SEEDS.prompts },
            progress,
          });
          break;
        case "memory":
          report.memory = await measureResidentMemory(corpus, {
            sizes: options.sizes,
            seeds: { imported: SEEDS.imported, ids: SEEDS.ids, queries: SEEDS.queries },
            baselineDaemon: options.baselineDaemon,
            progress,
          });
          break;
        case "mcp":
          report.mcp = await measureMcpStartup({ progress });
          break;
        case "viewer":
          report.viewer = await measureViewer(corpus, { memories: VIEWER_MEMORIES, seeds: { imported: SEEDS.imported, ids: SEEDS.ids, queries: SEEDS.queries }, progress });
          break;
        case "vault":
          report.vault = await measureVault(corpus, {
            memories: VAULT_MEMORIES,
            rebuildMemories: options.vaultMemories,
            seeds: { imported: SEEDS.imported, ids: SEEDS.ids, saved: SEEDS.saved },
            progress,
          });
          break;
        case "drain": {
          const perSecond = report.embed?.batched.perSecond ?? null;
          const plan = planDrain({
            explicit: options.drain,
            defaultSaves: DEFAULT_DRAIN,
            perSecond,
            secondsLeft: RUN_BUDGET_S - elapsedSeconds() - DRAIN_OVERHEAD_S,
          });
          if (plan.note) progress(`drain: ${plan.note}`);
          // Give up only on a daemon far slower than the model measured in-process (or a stuck one).
          const timeoutMs = perSecond ? Math.max(300, (4 * plan.saves) / perSecond) * 1000 : 30 * 60_000;
          report.drain = await measureQueueDrain(corpus, { ...plan, seed: SEEDS.drained, timeoutMs, progress });
          break;
        }
      }
      report.seconds[section] = (performance.now() - sectionStarted) / 1000;
    }
  } catch (error) {
    // Calls fail once the daemons are stopped on a signal; that is no error worth a stack trace.
    if (interrupted) return 130;
    throw error;
  } finally {
    process.removeListener("SIGINT", stopOnSignal);
    process.removeListener("SIGTERM", stopOnSignal);
    await stopAllBenchDaemons();
  }

  report.environment.loadAverage.end = os.loadavg()[0] ?? 0;
  report.totalSeconds = elapsedSeconds();
  process.stdout.write(`${formatReport(report, SECTIONS)}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  return targetsExitCode(options.check);
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
