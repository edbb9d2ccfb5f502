import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { freeLoopbackPort } from "../clients/transport/free-port.js";
import { startBenchDaemon } from "./daemon-process.js";
import { type LatencySummary, summarize } from "./latency.js";
import { createMemoryLoader } from "./load-memories.js";
import type { SyntheticCorpus } from "./synthetic-memories.js";
import { count, formatTable } from "./table.js";
import { verdict } from "./targets.js";

/** From the issue: reported; --check fails the run on a miss. */
export const VIEWER_TARGETS = { firstPageP50Ms: 300, searchP50Ms: 30, scriptGzipKib: 300 } as const;
const PAGE_LOADS = 20;
const SEARCHES = 60;
const WARMUP = 5;
/** A person's typing speed, between keys; the page waits for a pause of 120 ms before it searches. */
const KEY_DELAY_MS = 40;
const CHROMIUM = process.env.MEMD_CHROMIUM ?? "/usr/bin/chromium";
// This file compiles to dist/bench/, beside dist/clients/web: the page memd serves.
const PAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../clients/web");

export interface ViewerResult {
  memories: number;
  /** From navigation start until the page answers typing and has heard from the daemon (its memd:usable mark). */
  firstPage: LatencySummary;
  /** From a search sent, once typing paused, until its results were drawn (the page's memd:search measures). */
  search: LatencySummary;
  scriptBytes: number;
  scriptGzipBytes: number;
  chromium: string;
}

/**
 * The web viewer in Debian's Chromium, headless, against a daemon holding `memories` (keyword
 * and graph: no embedder, and no vault, whose writing of the import's files would compete): the
 * page loaded again and again by a signed-in browser, and queries typed into its search field.
 * Both are timed inside the page, by the page's own performance marks.
 */
export async function measureViewer(
  corpus: SyntheticCorpus,
  options: { memories: number; seeds: { imported: number; ids: number; queries: number }; progress: (line: string) => void },
): Promise<ViewerResult> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium, or set MEMD_CHROMIUM`);
  const script = fs.readFileSync(path.join(PAGE_DIR, "app.js"));
  const port = await freeLoopbackPort();
  const daemon = await startBenchDaemon({ MEMD_EMBEDDER: "none", MEMD_VAULT: "off", MEMD_LISTEN: `127.0.0.1:${port}` });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    options.progress(`viewer: importing ${count(options.memories)} memories`);
    await createMemoryLoader(corpus.memories(options.seeds.imported), daemon.clients.admin, options.seeds.ids).load(options.memories);
    const page = await (await browser.newContext()).newPage();
    await page.goto((await daemon.clients.viewer.openViewer({})).url);
    // Signed in once the page has heard from the daemon: it keeps the session for the loads below.
    await page.waitForFunction(() => performance.getEntriesByName("memd:usable").length > 0);
    options.progress(`viewer: ${WARMUP} + ${PAGE_LOADS} page loads, then ${WARMUP} + ${SEARCHES} queries typed`);
    const loads: number[] = [];
    for (let i = 0; i < WARMUP + PAGE_LOADS; i += 1) {
      await page.goto(`http://127.0.0.1:${port}/ui/`);
      const usable = await page.waitForFunction(() => performance.getEntriesByName("memd:usable")[0]?.startTime);
      if (i >= WARMUP) loads.push(Number(await usable.jsonValue()));
    }
    const nextQuery = corpus.queries(options.seeds.queries);
    const field = page.getByLabel("Search memories");
    const searches: number[] = [];
    for (let i = 0; i < WARMUP + SEARCHES; i += 1) {
      const before = await page.evaluate(() => performance.getEntriesByName("memd:search").length);
      await field.fill("");
      await field.pressSequentially(nextQuery().query, { delay: KEY_DELAY_MS });
      const took = await page.waitForFunction((seen) => performance.getEntriesByName("memd:search")[seen]?.duration, before);
      if (i >= WARMUP) searches.push(Number(await took.jsonValue()));
    }
    return {
      memories: options.memories,
      firstPage: summarize(loads),
      search: summarize(searches),
      scriptBytes: script.length,
      scriptGzipBytes: gzipSync(script).length,
      chromium: browser.version(),
    };
  } finally {
    await browser.close();
    await daemon.stop();
  }
}

export function formatViewer(r: ViewerResult): string {
  const row = (name: string, l: LatencySummary, target: number) => [name, l.p50Ms.toFixed(1), l.p99Ms.toFixed(1), l.maxMs.toFixed(1), `p50 <= ${target}: ${verdict(l.p50Ms <= target, `viewer, ${name}: p50 <= ${target} ms`)}`];
  const kib = r.scriptGzipBytes / 1024;
  return [
    `Chromium ${r.chromium} headless, signed in; ${count(r.memories)} memories, keyword + graph (no embedder, no vault); timed inside the page by its own marks; ${PAGE_LOADS} loads and ${SEARCHES} typed queries after ${WARMUP} each`,
    "",
    formatTable(
      [{ title: "viewer" }, { title: "p50 ms", right: true }, { title: "p99 ms", right: true }, { title: "max ms", right: true }, { title: "target" }],
      [row("first page usable (navigation to usable)", r.firstPage, VIEWER_TARGETS.firstPageP50Ms), row("search as you type (sent to drawn)", r.search, VIEWER_TARGETS.searchP50Ms)],
    ),
    "",
    `the page's JavaScript: ${(r.scriptBytes / 1024).toFixed(0)} KB, ${kib.toFixed(1)} KB gzipped (target <= ${VIEWER_TARGETS.scriptGzipKib}: ${verdict(kib <= VIEWER_TARGETS.scriptGzipKib, `viewer JavaScript: <= ${VIEWER_TARGETS.scriptGzipKib} KB gzipped`)})`,
  ].join("\n");
}
