import { type ResidentSet, readRssKib, startBenchDaemon } from "./daemon-process.js";
import { waitForEmbeddings } from "./recall-load.js";
import type { SyntheticCorpus } from "./synthetic-memories.js";
import { count, formatTable, mib, numericColumns } from "./table.js";
import { verdict } from "./targets.js";

/** From the issue: the daemon with the local model loaded. Reported; --check fails the run on a miss. */
export const DRAIN_RSS_TARGET_BYTES = 400_000_000;
/** Saves in flight at once: a burst from a few agents, not one hook waiting on each ack. */
const SAVES_IN_FLIGHT = 4;
const POLL_EVERY_MS = 250;
/** The fewest saves worth timing: below this the model's start-up is most of the time. */
const MIN_SAVES = 500;

export interface DrainPlan {
  saves: number;
  /** Why the count is not the one asked for, in a sentence; null when it is. */
  note: string | null;
}

/**
 * How many Saves to drain: an explicit count as given; the default one lowered, in steps of
 * MIN_SAVES, when at `perSecond` (measured in-process) it would take longer than `secondsLeft`.
 */
export function planDrain(input: { explicit: number | undefined; defaultSaves: number; perSecond: number | null; secondsLeft: number }): DrainPlan {
  const { explicit, defaultSaves, perSecond, secondsLeft } = input;
  if (explicit !== undefined) return { saves: explicit, note: null };
  if (perSecond === null || perSecond <= 0) {
    return { saves: defaultSaves, note: `the "embed" part did not run, so the default ${count(defaultSaves)} Saves were not checked against the time budget` };
  }
  const predicted = defaultSaves / perSecond;
  if (predicted <= secondsLeft) return { saves: defaultSaves, note: null };
  const saves = Math.max(MIN_SAVES, Math.floor((perSecond * secondsLeft) / MIN_SAVES) * MIN_SAVES);
  return {
    saves,
    note:
      `N lowered from the default ${count(defaultSaves)} to ${count(saves)}: at the ${perSecond.toFixed(1)} memories/s measured in-process ` +
      `(32 per call), ${count(defaultSaves)} would take ~${Math.round(predicted)} s and the default run should end within ~12 minutes; ` +
      `--drain ${defaultSaves} measures them all`,
  };
}

export interface QueueDrainResult {
  saves: number;
  note: string | null;
  /** The embedder as the daemon reports it. */
  embedder: { provider: string; model: string; dimensions: number; reason: string; state: string; lastError: string };
  /** From the first Save to the last ack. */
  saveSeconds: number;
  /** Memories still waiting for a vector when the last Save was acknowledged. */
  queuedAfterSaves: number;
  /** From the first Save until the queue was seen empty (model start-up included). */
  drainSeconds: number;
  perSecond: number;
  /** Memories still waiting when the wait gave up; 0 when the queue drained. */
  leftInQueue: number;
  timedOut: boolean;
  startRss: ResidentSet | null;
  /** Right after the queue drained, with the model loaded in the daemon's worker threads. */
  rss: ResidentSet | null;
}

/**
 * Saves `saves` synthetic memories to a real daemon that embeds with the local model, then polls
 * AdminService.Stats until its embedding queue is empty: the time a burst of memories takes to
 * become findable by meaning, and the daemon's memory with the model loaded.
 */
export async function measureQueueDrain(
  corpus: SyntheticCorpus,
  options: { saves: number; note: string | null; seed: number; timeoutMs: number; progress: (line: string) => void },
): Promise<QueueDrainResult> {
  const { saves, progress } = options;
  const daemon = await startBenchDaemon({ MEMD_EMBEDDER: "local" });
  try {
    const startRss = readRssKib(daemon.pid);
    const { memory, admin } = daemon.clients;
    progress(`drain: memd started (pid ${daemon.pid}, MEMD_EMBEDDER=local); saving ${count(saves)} memories...`);
    const nextMemory = corpus.memories(options.seed);
    const started = performance.now();
    let issued = 0;
    const saveLoop = async () => {
      while (issued < saves) {
        issued += 1;
        await memory.save({ ...nextMemory(), importance: 3, confidence: 0.5 });
      }
    };
    await Promise.all(Array.from({ length: SAVES_IN_FLIGHT }, saveLoop));
    const saveSeconds = (performance.now() - started) / 1000;
    progress(`drain: ${count(saves)} saves acknowledged in ${saveSeconds.toFixed(1)} s; waiting for the embedding queue...`);
    const wait = await waitForEmbeddings(admin, options.timeoutMs, (line) => progress(`drain: ${line}`), POLL_EVERY_MS);
    const drainSeconds = (performance.now() - started) / 1000;
    const rss = readRssKib(daemon.pid);
    const status = (await admin.stats({})).embedder;
    return {
      saves,
      note: options.note,
      embedder: {
        provider: wait.provider,
        model: wait.model,
        dimensions: wait.dimensions,
        reason: status?.reason ?? "",
        state: wait.state,
        lastError: status?.lastError ?? "",
      },
      saveSeconds,
      queuedAfterSaves: wait.pendingAtStart,
      drainSeconds,
      perSecond: (saves - wait.pendingAtEnd) / drainSeconds,
      leftInQueue: wait.pendingAtEnd,
      timedOut: wait.timedOut,
      startRss,
      rss,
    };
  } finally {
    await daemon.stop();
  }
}

export function formatQueueDrain(r: QueueDrainResult): string {
  const rssMet = r.rss === null ? "n/a" : verdict(r.rss.rssKib * 1024 <= DRAIN_RSS_TARGET_BYTES, `queue drain: daemon RSS <= ${DRAIN_RSS_TARGET_BYTES / 1024 / 1024} MiB`);
  const table = formatTable(
    [
      ...numericColumns(["saves", "saves acked s", "queued then", "drained s", "memories/s", "daemon RSS MiB", "peak RSS MiB"]),
      { title: "RSS target" },
    ],
    [
      [
        count(r.saves),
        r.saveSeconds.toFixed(1),
        count(r.queuedAfterSaves),
        r.timedOut ? `> ${r.drainSeconds.toFixed(1)}` : r.drainSeconds.toFixed(1),
        r.perSecond.toFixed(1),
        r.rss ? mib(r.rss.rssKib) : "n/a",
        r.rss ? mib(r.rss.peakKib) : "n/a",
        `<= 400 MB (${mib(DRAIN_RSS_TARGET_BYTES / 1024)} MiB) after draining: ${rssMet}`,
      ],
    ],
  );
  const lines = [
    `Saves (${SAVES_IN_FLIGHT} in flight, without wait_for_vector) to a real daemon with MEMD_EMBEDDER=local ` +
      `(${r.embedder.provider} ${r.embedder.model}, ${r.embedder.dimensions} dimensions)`,
    `drained s = first Save until AdminService.Stats shows embedder.queueDepth 0 (polled every ${POLL_EVERY_MS} ms), ` +
      `the model's start-up included; memories/s = saves / drained s`,
  ];
  if (r.note) lines.push(r.note);
  lines.push("", table, "", `daemon RSS right after start, model not loaded: ${r.startRss ? `${mib(r.startRss.rssKib)} MiB` : "n/a"}`);
  if (r.timedOut) {
    lines.push(`WARNING: gave up with ${count(r.leftInQueue)} memories still queued${r.embedder.lastError ? ` (last error: ${r.embedder.lastError})` : ""}`);
  }
  return lines.join("\n");
}
