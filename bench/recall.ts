import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "./bench-options.js";
import { type BenchDaemon, startBenchDaemon } from "./daemon-process.js";
import { summarize } from "./latency.js";
import { readDataset, toMemdMemories } from "./recall-dataset.js";
import { importMemories, waitForEmbeddings } from "./recall-load.js";
import { scoreRun, scoreSuggest } from "./recall-metrics.js";
import { findRepoRoot, parseRecallOptions, RECALL_USAGE } from "./recall-options.js";
import { formatRecallReport, MODES, type ModeResult, type RecallReport, recallJson, summaryLine } from "./recall-report.js";
import { runJsonl, runMode, runSuggest } from "./recall-search.js";

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
  for (const dir of options.missing) progress(`${dir} is not here: not measured`);

  let current: BenchDaemon | undefined;
  let interrupted = false;
  const stopOnSignal = () => {
    interrupted = true;
    progress("interrupted: stopping memd");
    void (current?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once("SIGINT", stopOnSignal);
  process.once("SIGTERM", stopOnSignal);
  const reports: RecallReport[] = [];
  try {
    for (const dir of options.dirs) {
      current = await startBenchDaemon({ MEMD_EMBEDDER: options.embedder });
      try {
        reports.push(await measureSet(dir, repoRoot, current, options.embedder, options.queueTimeoutMs));
      } finally {
        await current.stop();
      }
      process.stdout.write(`${formatRecallReport(reports.at(-1) as RecallReport)}\n\n`);
    }
  } catch (error) {
    if (interrupted) return 130;
    throw error;
  } finally {
    process.removeListener("SIGINT", stopOnSignal);
    process.removeListener("SIGTERM", stopOnSignal);
  }
  process.stdout.write(`${reports.map(summaryLine).join("\n")}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify(Object.fromEntries(reports.map((r) => [r.dataset.dir, recallJson(r)])))}\n`);
  return 0;
}

/** Loads one dataset into a fresh daemon and measures every search mode and Suggest on it. */
async function measureSet(dir: string, repoRoot: string, daemon: BenchDaemon, embedder: string, queueTimeoutMs: number): Promise<RecallReport> {
  const started = performance.now();
  const dataset = readDataset(dir);
  progress(`${path.relative(repoRoot, dir)}: memd started (pid ${daemon.pid}, MEMD_HOME ${daemon.home}, MEMD_EMBEDDER=${embedder})`);
  // Ages are relative to the daemon's clock, which decay and recency read: now, not a fixed date.
  const { memories, ids } = toMemdMemories(dataset.memories, Date.now());
  const loadSeconds = await importMemories(daemon.clients.admin, memories);
  progress(`imported ${memories.length} memories in ${loadSeconds.toFixed(1)} s`);
  const embedding = await waitForEmbeddings(daemon.clients.admin, queueTimeoutMs, progress);

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
  progress(`asking Suggest for ${dataset.queries.length} prompts...`);
  const suggestRun = await runSuggest(daemon.clients.memory, dataset.queries, ids);
  const suggest = suggestRun.ok
    ? { ok: true as const, scores: scoreSuggest(dataset.queries, suggestRun.pointers), latency: summarize(suggestRun.durationsMs) }
    : { ok: false as const, reason: suggestRun.reason };
  return {
    dataset: { dir: path.relative(repoRoot, dataset.dir) || ".", memories: dataset.memories.length, queries: dataset.queries.length },
    embedder: { provider: embedding.provider, model: embedding.model, dimensions: embedding.dimensions, state: embedding.state },
    load: {
      seconds: loadSeconds,
      embedSeconds: embedding.seconds,
      pendingAtStart: embedding.pendingAtStart,
      pendingAtEnd: embedding.pendingAtEnd,
      timedOut: embedding.timedOut,
    },
    modes,
    suggest,
    runsDir,
    totalSeconds: (performance.now() - started) / 1000,
  };
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
