import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "./bench-options.js";
import { type BenchDaemon, startBenchDaemon } from "./daemon-process.js";
import { summarize } from "./latency.js";
import { type Dataset, halveDataset, readDataset, sampleDataset, splitByProject, toMemdMemories } from "./recall-dataset.js";
import { importMemories, waitForEmbeddings } from "./recall-load.js";
import { scoreRun, scoreSuggest } from "./recall-metrics.js";
import { findRepoRoot, parseRecallOptions, RECALL_USAGE, type RecallOptions, type RecallSet } from "./recall-options.js";
import { formatRecallReport, MODES, type ModeName, type ModeResult, type RecallReport, recallJson, setName, summaryLine } from "./recall-report.js";
import { runJsonl, runMode, runSuggest } from "./recall-search.js";

async function main(): Promise<number> {
  const repoRoot = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));
  let options: RecallOptions | "help";
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
    for (const set of options.sets) {
      // The data is read before memd starts: parsing a large set takes seconds, long enough for
      // the daemon to close the client's idle connection under it.
      const read = readDataset(set.dir);
      const halved = options.half === undefined ? read : halveDataset(read, options.half);
      const dataset = options.sample === undefined ? halved : sampleDataset(halved, options.sample);
      const stores: LoadedStore[] = [];
      for (const [k, embedder] of options.embedders.entries()) {
        const run = { embedder, stores, keepStores: k < options.embedders.length - 1 };
        reports.push(
          await measureSet(set, dataset, dataset.queries.length < read.queries.length, repoRoot, options, run, (daemon) => {
            current = daemon;
          }),
        );
        process.stdout.write(`${formatRecallReport(reports.at(-1) as RecallReport)}\n\n`);
      }
      for (const store of stores) fs.rmSync(store.home, { recursive: true, force: true });
    }
  } catch (error) {
    if (interrupted) return 130;
    throw error;
  } finally {
    process.removeListener("SIGINT", stopOnSignal);
    process.removeListener("SIGTERM", stopOnSignal);
  }
  process.stdout.write(`${reports.map(summaryLine).join("\n")}\n`);
  const key = (r: RecallReport) => (options.embedders.length > 1 ? `${setName(r)} [${r.embedder.setting}]` : setName(r));
  if (options.json) process.stdout.write(`${JSON.stringify(Object.fromEntries(reports.map((r) => [key(r), recallJson(r)])))}\n`);
  return 0;
}

/** A store loaded by the first embedder of a run, for the next to restart memd on. */
interface LoadedStore {
  home: string;
  ids: ReturnType<typeof toMemdMemories>["ids"];
}

/** One embedder's turn: MEMD_EMBEDDER, the stores loaded so far (by part), and whether another turn follows. */
interface EmbedderRun {
  embedder: string;
  stores: LoadedStore[];
  keepStores: boolean;
}

/** One mode's ranked lists so far, over every store of a set, or why it could not be measured. */
type ModeRuns = { ok: true; ranked: Map<string, string[]>; durationsMs: number[] } | { ok: false; reason: string };

/**
 * Loads a dataset into fresh daemons (one, or one per project; see Layout), measures every
 * search mode and Suggest in each, and scores the lists of all of them together. The queue
 * timeout is for the whole set: once it is spent, later stores are searched without waiting.
 */
async function measureSet(
  set: RecallSet,
  dataset: Dataset,
  sampled: boolean,
  repoRoot: string,
  options: RecallOptions,
  run: EmbedderRun,
  started: (daemon: BenchDaemon) => void,
): Promise<RecallReport> {
  const began = performance.now();
  const { parts, unplaced } = set.layout === "one-store" ? { parts: [dataset], unplaced: 0 } : splitByProject(dataset);
  const name = path.relative(repoRoot, dataset.dir) || ".";
  const modes = new Map<ModeName, ModeRuns>(MODES.map((mode) => [mode, { ok: true, ranked: new Map(), durationsMs: [] }]));
  let suggest: ModeRuns & { pointers?: Map<string, string[]> } = { ok: true, ranked: new Map(), durationsMs: [] };
  const load = { seconds: 0, embedSeconds: 0, pendingAtStart: 0, pendingAtEnd: 0, timedOut: false };
  let embedder: RecallReport["embedder"] = { setting: run.embedder, provider: "unknown", model: "", dimensions: 0, state: "unknown" };
  for (const [index, part] of parts.entries()) {
    const loaded = run.stores[index];
    const daemon = await startBenchDaemon({ MEMD_EMBEDDER: run.embedder }, loaded?.home);
    started(daemon);
    // Per project, one line per store would bury the rest: the first store speaks, and every tenth.
    const say = index === 0 || (index + 1) % 10 === 0 || parts.length === 1 ? progress : () => {};
    try {
      say(`${name}: memd started (pid ${daemon.pid}, MEMD_HOME ${daemon.home}, MEMD_EMBEDDER=${run.embedder})` + (parts.length > 1 ? `, store ${index + 1} of ${parts.length}` : ""));
      let ids = loaded?.ids;
      if (ids === undefined) {
        // Ages are relative to the daemon's clock, which decay and recency read: now, not a fixed date.
        const converted = toMemdMemories(part.memories, Date.now());
        ids = converted.ids;
        const seconds = await importMemories(daemon.clients.admin, converted.memories);
        load.seconds += seconds;
        say(`imported ${converted.memories.length} memories in ${seconds.toFixed(1)} s`);
        run.stores[index] = { home: daemon.home, ids };
      }
      const waitMs = Math.max(0, options.queueTimeoutMs - load.embedSeconds * 1000);
      const embedding = await waitForEmbeddings(daemon.clients.admin, waitMs, embedderSpeaks(embedder, say));
      embedder = { setting: run.embedder, provider: embedding.provider, model: embedding.model, dimensions: embedding.dimensions, state: embedding.state };
      load.embedSeconds += embedding.seconds;
      load.pendingAtStart += embedding.pendingAtStart;
      load.pendingAtEnd += embedding.pendingAtEnd;
      load.timedOut ||= embedding.timedOut;
      for (const mode of MODES) {
        const sofar = modes.get(mode) as ModeRuns;
        if (!sofar.ok) continue;
        say(`searching ${part.queries.length} queries in ${mode} mode...`);
        const run = await runMode(daemon.clients.memory, mode, part.queries, ids);
        if (!run.ok) progress(`  ${mode} mode is n/a: ${run.reason}`);
        modes.set(mode, merged(sofar, run));
      }
      if (suggest.ok) {
        say(`asking Suggest for ${part.queries.length} prompts...`);
        const run = await runSuggest(daemon.clients.memory, part.queries, ids);
        suggest = merged(suggest, run.ok ? { ok: true, ranked: run.pointers, durationsMs: run.durationsMs } : run);
      }
    } finally {
      await daemon.stop({ keepHome: run.keepStores });
    }
  }

  const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-recall-runs-"));
  const queries = parts.flatMap((part) => part.queries);
  const results: ModeResult[] = MODES.map((mode) => {
    const run = modes.get(mode) as ModeRuns;
    if (!run.ok) return { mode, ok: false, reason: run.reason };
    fs.writeFileSync(path.join(runsDir, `${mode}.jsonl`), runJsonl(queries, run.ranked));
    return { mode, ok: true, scores: scoreRun(queries, run.ranked), latency: summarize(run.durationsMs) };
  });
  return {
    dataset: {
      dir: name,
      layout: set.layout,
      stores: parts.length,
      memories: parts.reduce((n, part) => n + part.memories.length, 0),
      queries: queries.length,
      unplaced,
      sampled,
    },
    embedder,
    load,
    modes: results,
    suggest: suggest.ok
      ? { ok: true, scores: scoreSuggest(queries, suggest.ranked), latency: summarize(suggest.durationsMs) }
      : { ok: false, reason: suggest.reason },
    runsDir,
    totalSeconds: (performance.now() - began) / 1000,
  };
}

/** A mode's lists so far with one more store's; the first failure ends the mode. */
function merged(sofar: ModeRuns, run: ModeRuns): ModeRuns {
  if (!sofar.ok) return sofar;
  if (!run.ok) return run;
  for (const [qid, ranked] of run.ranked) sofar.ranked.set(qid, ranked);
  sofar.durationsMs.push(...run.durationsMs);
  return sofar;
}

/** The embedding wait's progress: said once when embeddings are off (every store would say so), as it comes otherwise. */
function embedderSpeaks(known: RecallReport["embedder"], say: (line: string) => void): (line: string) => void {
  return known.provider === "none" ? () => {} : say;
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
