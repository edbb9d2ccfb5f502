import { SearchMode } from "../gen/memd/v1/memory_service_pb.js";
import { type ResidentSet, readRssKib, startBenchDaemon } from "./daemon-process.js";
import { createMemoryLoader } from "./load-memories.js";
import { waitForEmbeddings } from "./recall-load.js";
import type { SyntheticCorpus } from "./synthetic-memories.js";
import { count, formatTable, mib, numericColumns } from "./table.js";
import { verdict } from "./targets.js";

/** From the issue: the daemon's RSS with the default embedder. Reported; --check fails the run on a miss. */
export const RSS_TARGETS_MIB: Readonly<Record<number, number>> = { 10_000: 200, 100_000: 350 };
/**
 * The default (the static table) beside the old default (the full USE-lite encoder in worker
 * threads) in this build, and, given another build (--baseline), that build's daemon with the full
 * encoder: the old path, its search mirror and entity index included.
 */
const EMBEDDERS = ["static", "local"] as const;
const BASELINE = "baseline local";
const SEARCHES = 200;
/**
 * RSS is read this many times, a second apart, after the searches, and the median reported: the
 * daemon goes on checking the imported memories for contradictions, and its heap rises and falls
 * with that by 50-100 MiB within a minute, so one reading said more about when it was taken.
 */
const RSS_READINGS = 30;
const RSS_READ_EVERY_MS = 1000;
/**
 * How long the full encoder embeds before RSS is read: it needs 5-60 minutes per 10k memories
 * here, so it is read with the model loaded and part of the queue done; the static table finishes.
 */
const LOCAL_EMBED_MS = 90_000;
const STATIC_EMBED_MS = 15 * 60_000;

export interface ResidentMemoryRow {
  /** MEMD_EMBEDDER in this build, or BASELINE. */
  embedder: string;
  /** The other build's daemon the row measured; empty for this build's. */
  daemon: string;
  memories: number;
  /** Memories with a vector when RSS was read. */
  embedded: number;
  rss: ResidentSet | null;
  /** Why the row could not be measured (the daemon failed), or empty. */
  error: string;
}

/**
 * The daemon's memory at each size with each embedder, in one run on the same memories: import,
 * embed (see LOCAL_EMBED_MS), 200 hybrid searches (which load the search mirror and the vector
 * index), then VmRSS and its high-water mark.
 */
export async function measureResidentMemory(
  corpus: SyntheticCorpus,
  options: {
    sizes: readonly number[];
    seeds: { imported: number; ids: number; queries: number };
    /** Another build's daemon to measure beside this one's (see BASELINE). */
    baselineDaemon: string | undefined;
    progress: (line: string) => void;
  },
): Promise<ResidentMemoryRow[]> {
  const rows: ResidentMemoryRow[] = [];
  const runs: { embedder: string; setting: string; bin: string | undefined }[] = EMBEDDERS.map((embedder) => ({ embedder, setting: embedder, bin: undefined }));
  if (options.baselineDaemon) runs.push({ embedder: BASELINE, setting: "local", bin: options.baselineDaemon });
  for (const memories of options.sizes) {
    for (const { embedder, setting, bin } of runs) {
      const daemon = await startBenchDaemon({ MEMD_EMBEDDER: setting }, undefined, bin);
      let row: ResidentMemoryRow;
      let phase = "import";
      try {
        options.progress(`memory: ${count(memories)} memories, ${bin ? `${bin}, ` : ""}MEMD_EMBEDDER=${setting} (pid ${daemon.pid})`);
        await createMemoryLoader(corpus.memories(options.seeds.imported), daemon.clients.admin, options.seeds.ids).load(memories);
        phase = "embedding";
        const wait = await waitForEmbeddings(daemon.clients.admin, setting === "local" ? LOCAL_EMBED_MS : STATIC_EMBED_MS, () => undefined);
        phase = "searches";
        const nextQuery = corpus.queries(options.seeds.queries);
        for (let i = 0; i < SEARCHES; i++) await daemon.clients.memory.search({ ...nextQuery(), mode: SearchMode.HYBRID, limit: 10 });
        row = { embedder, daemon: bin ?? "", memories, embedded: memories - wait.pendingAtEnd, rss: await medianRss(daemon.pid), error: "" };
      } catch (error) {
        // One daemon's failure is a finding, not the end of the section: the other rows still count.
        const reason = error instanceof Error ? error.message : String(error);
        row = { embedder, daemon: bin ?? "", memories, embedded: 0, rss: null, error: `${phase} failed: ${reason}; memd's stderr: ${daemon.stderr().slice(-2000)}` };
      } finally {
        await daemon.stop();
      }
      rows.push(row);
      options.progress(`memory: ${row.error ? `FAILED: ${row.error}` : `RSS ${row.rss ? mib(row.rss.rssKib) : "n/a"} MiB (peak ${row.rss ? mib(row.rss.peakKib) : "n/a"}), ${count(row.embedded)} with a vector`}`);
    }
  }
  return rows;
}

/** The median of RSS_READINGS readings of the process's RSS, with its high-water mark at the end; null where there is no /proc. */
async function medianRss(pid: number): Promise<ResidentSet | null> {
  const readings: number[] = [];
  let last: ResidentSet | null = null;
  for (let i = 0; i < RSS_READINGS; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, RSS_READ_EVERY_MS));
    last = readRssKib(pid);
    if (last === null) return null;
    readings.push(last.rssKib);
  }
  readings.sort((a, b) => a - b);
  return { rssKib: readings[readings.length >> 1] as number, peakKib: (last as ResidentSet).peakKib };
}

export function formatResidentMemory(rows: readonly ResidentMemoryRow[]): string {
  const baselineDaemon = rows.find((r) => r.daemon !== "")?.daemon;
  const table = formatTable(
    [...numericColumns(["MEMD_EMBEDDER", "memories", "with a vector", "RSS MiB", "peak RSS MiB"]), { title: "target (default embedder)" }],
    rows.map((r) => {
      const target = RSS_TARGETS_MIB[r.memories];
      const judged =
        r.embedder !== "static" || target === undefined || !r.rss ? "-" : `<= ${target} MiB: ${verdict(r.rss.rssKib / 1024 <= target, `RSS with the default embedder at ${count(r.memories)} memories: <= ${target} MiB`)}`;
      if (r.error) return [r.embedder, count(r.memories), "-", "n/a", "n/a", `failed: ${r.error.slice(0, 80)}`];
      return [r.embedder, count(r.memories), count(r.embedded), r.rss ? mib(r.rss.rssKib) : "n/a", r.rss ? mib(r.rss.peakKib) : "n/a", judged];
    }),
  );
  return [
    `Daemon memory: synthetic memories imported, embedded, then ${SEARCHES} project-scoped HYBRID searches; RSS read after them, the median of ${RSS_READINGS} readings ${RSS_READ_EVERY_MS / 1000} s apart`,
    `static: the table distilled from USE-lite (the default), every memory embedded; local: the full USE-lite encoder (the old default), ` +
      `RSS read after ${LOCAL_EMBED_MS / 1000} s of embedding with its model loaded` +
      (baselineDaemon ? `; ${BASELINE}: ${baselineDaemon} (the old path: its search mirror and entity index), the same way` : ""),
    "",
    table,
  ].join("\n");
}
