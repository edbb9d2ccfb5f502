import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "./bench-options.js";
import { type BenchDaemon, startBenchDaemon } from "./daemon-process.js";
import { summarize } from "./latency.js";
import { readDataset, toMemdMemories } from "./recall-dataset.js";
import { importMemories, waitForEmbeddings } from "./recall-load.js";
import { scoreRun } from "./recall-metrics.js";
import { findRepoRoot, parseRecallOptions, RECALL_USAGE } from "./recall-options.js";
import { formatRecallReport, MODES, type ModeResult, type RecallReport, recallJson } from "./recall-report.js";
import { runJsonl, runMode } from "./recall-search.js";

async function main(): Promise<number> {
  const repoRoot = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));
  let options;
  try {
    options = parseRecallOptions(process.argv.slice(2), repoRoot);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`bench:recall: ${error.message}\n${RECALL_USAGE}\n`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(`${RECALL_USAGE}\n`);
    return 0;
  }

  const started = performance.now();
  const dataset = readDataset(options.dir);
  const daemon: BenchDaemon = await startBenchDaemon({ MEMD_EMBEDDER: options.embedder });
  let interrupted = false;
  const stopOnSignal = () => {
    interrupted = true;
    progress("interrupted: stopping memd");
    void daemon.stop().finally(() => process.exit(130));
  };
  process.once("SIGINT", stopOnSignal);
  process.once("SIGTERM", stopOnSignal);
  let report: RecallReport;
  try {
    progress(`memd started (pid ${daemon.pid}, MEMD_HOME ${daemon.home}, MEMD_EMBEDDER=${options.embedder})`);
    // Ages are relative to the daemon's clock, which decay and recency read: now, not a fixed date.
    const { memories, ids } = toMemdMemories(dataset.memories, Date.now());
    const loadSeconds = await importMemories(daemon.clients.admin, memories);
    progress(`imported ${memories.length} memories in ${loadSeconds.toFixed(1)} s`);
    const embedding = await waitForEmbeddings(daemon.clients.admin, options.queueTimeoutMs, progress);

    const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-recall-runs-"));
    const modes: ModeResult[] = [];
    for (const mode of MODES) {
      progress(`searching ${dataset.queries.length} queries in ${mode} mode...`);
      const run = await runMode(daemon.clients.memory, mode, dataset.queries, ids);
      if (!run.ok) {
        progress(`  ${mode} mode is n/a: ${run.reason}`);
        modes.push({ mode, ok: false, reason: run.reason });
        continue;
      }
      fs.writeFileSync(path.join(runsDir, `${mode}.jsonl`), runJsonl(dataset.queries, run.ranked));
      modes.push({ mode, ok: true, scores: scoreRun(dataset.queries, run.ranked), latency: summarize(run.durationsMs) });
    }
    report = {
      dataset: { dir: path.relative(repoRoot, dataset.dir) || ".", memories: dataset.memories.length, queries: dataset.queries.length },
      embedder: {
        provider: embedding.provider,
        model: embedding.model,
        dimensions: embedding.dimensions,
        state: embedding.state,
      },
      load: {
        seconds: loadSeconds,
        embedSeconds: embedding.seconds,
        pendingAtStart: embedding.pendingAtStart,
        pendingAtEnd: embedding.pendingAtEnd,
        timedOut: embedding.timedOut,
      },
      modes,
      runsDir,
      totalSeconds: 0,
    };
  } catch (error) {
    if (interrupted) return 130;
    throw error;
  } finally {
    process.removeListener("SIGINT", stopOnSignal);
    process.removeListener("SIGTERM", stopOnSignal);
    await daemon.stop();
  }
  report.totalSeconds = (performance.now() - started) / 1000;
  process.stdout.write(`${formatRecallReport(report)}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify(recallJson(report))}\n`);
  return 0;
}

/** Progress goes to stderr so that stdout holds only the report (and the JSON line). */
function progress(line: string): void {
  process.stderr.write(`bench:recall: ${line}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench:recall: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
