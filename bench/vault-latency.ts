import fs from "node:fs";
import path from "node:path";
import { SearchMode } from "../gen/memd/v1/memory_service_pb.js";
import type { MemoryKind } from "../daemon/src/memory/memory.js";
import { vaultPath } from "../daemon/src/vault/file-name.js";
import { type BenchDaemon, startBenchDaemon } from "./daemon-process.js";
import { type LatencySummary, measureSequential, summarize } from "./latency.js";
import { createMemoryLoader } from "./load-memories.js";
import type { SyntheticCorpus } from "./synthetic-memories.js";
import { count, formatTable } from "./table.js";
import { verdict } from "./targets.js";

export interface VaultSeeds {
  imported: number;
  ids: number;
  saved: number;
}

export interface VaultResult {
  /** Memories in the daemons the latencies are measured in. */
  memories: number;
  /** Save p50/p99 with the vault off and on, once maintenance and the vault are idle. */
  saveOff: LatencySummary;
  saveOn: LatencySummary;
  /** Save p50/p99 right after a second import of `memories`, while the vault writes their files. */
  saveWhileImportWrites: LatencySummary;
  /** Files still to write when the last of those Saves was answered. */
  filesLeftAfterSaves: number;
  /** From the Save call until its memory's file exists. */
  changeToFile: LatencySummary;
  /** From writing a file with a changed content until a keyword Search finds it. */
  editToSearch: LatencySummary;
  /** Files the writer wrote per second after an import (one atomic, fsynced write each). */
  filesPerSecond: number;
  rebuild: { memories: number; writeSeconds: number; rebuildSeconds: number; restored: number };
}

const SAVES = 300;
const WARMUP = 20;
/** Saves before each Save row is timed: a resident daemon answers warm, its code long compiled. */
const SAVE_WARMUP = 300;
const FILE_RUNS = 100;
const EDIT_RUNS = 50;
const POLL_MS = 1;
const GIVE_UP_MS = 30_000;
/** From the issue. Reported; --check fails the run on a miss. */
export const VAULT_TARGETS = { changeToFileP50Ms: 200, editToSearchP50Ms: 1000, rebuild100kSeconds: 300, saveP50Ms: 2 } as const;

/**
 * The vault end to end against real daemons, keyword only (embedding is excluded by
 * definition here, and reported by the other sections): Save with the vault off and on, a change
 * until its file exists, a file edit until Search finds it, the writer's rate after an import,
 * and a rebuild of `rebuildMemories` from the vault alone after the database is deleted.
 */
export async function measureVault(
  corpus: SyntheticCorpus,
  options: { memories: number; rebuildMemories: number; seeds: VaultSeeds; progress: (line: string) => void },
): Promise<VaultResult> {
  const { progress, seeds } = options;
  const saveOff = await withDaemon({ MEMD_EMBEDDER: "none", MEMD_VAULT: "off" }, async (daemon) => {
    progress(`vault: vault off, importing ${count(options.memories)} memories`);
    await createMemoryLoader(corpus.memories(seeds.imported), daemon.clients.admin, seeds.ids).load(options.memories);
    return timeSaves(daemon, corpus, seeds.saved, false);
  });
  const on = await withDaemon({ MEMD_EMBEDDER: "none" }, async (daemon) => {
    progress(`vault: vault on, importing ${count(options.memories)} memories and waiting for their files`);
    const loader = createMemoryLoader(corpus.memories(seeds.imported), daemon.clients.admin, seeds.ids);
    await loader.load(options.memories);
    const writeSeconds = await filesWritten(daemon);
    const saveOn = await timeSaves(daemon, corpus, seeds.saved, true);
    progress(`vault: ${FILE_RUNS} saves until their file exists, ${EDIT_RUNS} file edits until Search finds them`);
    const vault = path.join(daemon.home, "vault");
    const nextMemory = corpus.memories(seeds.saved + 1);
    // Saved now, so active: the imported ones are dated 2025, and maintenance archives many as decayed.
    const savedIds: string[] = [];
    const changeToFile = await measureSequential(FILE_RUNS, WARMUP, async () => {
      const saved = (await daemon.clients.memory.save({ ...nextMemory(), importance: 3, confidence: 0.5 })).memory;
      if (!saved) throw new Error("Save answered no memory");
      savedIds.push(saved.id);
      await untilTrue(() => fs.existsSync(path.join(vault, vaultPath({ id: saved.id, content: saved.content, project: saved.project, kind: kindName(saved.kind) }))));
    });
    let edit = 0;
    const editToSearch = await measureSequential(EDIT_RUNS, 5, async () => {
      edit += 1;
      const id = savedIds[edit] ?? "";
      const memory = (await daemon.clients.memory.get({ id })).memory;
      if (!memory) throw new Error(`no memory ${id}`);
      const file = path.join(vault, vaultPath({ id, content: memory.content, project: memory.project, kind: kindName(memory.kind) }));
      const token = `vaultedit${edit}zq`;
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/\n---\n/, `\n---\nEdited by hand: ${token}. `));
      await untilTrue(async () => (await daemon.clients.memory.search({ query: token, mode: SearchMode.KEYWORD, allProjects: true })).results.length > 0).catch(async (error: unknown) => {
        const status = await daemon.clients.vault.getVaultStatus({});
        throw new Error(`the edit of ${file} never reached Search (vault: ${status.pending} pending, unreadable ${JSON.stringify(status.unreadable.slice(0, 3))}, held ${JSON.stringify(status.held.slice(0, 3))}): ${String(error)}`);
      });
    });
    progress(`vault: importing ${count(options.memories)} more memories, then ${SAVES} Saves while the vault writes their files`);
    await loader.load(options.memories);
    const next = corpus.memories(seeds.saved + 2);
    const saveWhileImportWrites = await measureSequential(SAVES, 0, () => daemon.clients.memory.save({ ...next(), importance: 3, confidence: 0.5 }));
    const filesLeftAfterSaves = Number((await daemon.clients.vault.getVaultStatus({})).pending);
    return { saveOn, changeToFile, editToSearch, filesPerSecond: options.memories / writeSeconds, saveWhileImportWrites, filesLeftAfterSaves };
  });
  const rebuild = await measureRebuild(corpus, options.rebuildMemories, seeds, progress);
  return { memories: options.memories, saveOff, ...on, rebuild };
}

async function measureRebuild(corpus: SyntheticCorpus, memories: number, seeds: VaultSeeds, progress: (line: string) => void): Promise<VaultResult["rebuild"]> {
  const first = await startBenchDaemon({ MEMD_EMBEDDER: "none" });
  const home = first.home;
  let writeSeconds: number;
  try {
    progress(`vault: rebuild: importing ${count(memories)} memories and waiting for their files`);
    await createMemoryLoader(corpus.memories(seeds.imported), first.clients.admin, seeds.ids).load(memories);
    writeSeconds = await filesWritten(first, (left) => progress(`vault: rebuild: ${count(left)} files left to write`));
  } finally {
    await first.stop({ keepHome: true });
  }
  for (const name of fs.readdirSync(home)) if (name.startsWith("memd.db")) fs.rmSync(path.join(home, name));
  progress(`vault: rebuild: database deleted; starting memd on the vault alone`);
  const started = performance.now();
  const second = await startBenchDaemon({ MEMD_EMBEDDER: "none" }, home);
  try {
    let restored = 0;
    await untilTrue(async () => {
      restored = Number((await second.clients.admin.stats({})).total);
      return restored >= memories;
    }, 20 * 60_000, 200);
    return { memories, writeSeconds, rebuildSeconds: (performance.now() - started) / 1000, restored };
  } finally {
    await second.stop();
  }
}

async function withDaemon<T>(settings: Record<string, string>, work: (daemon: BenchDaemon) => Promise<T>): Promise<T> {
  const daemon = await startBenchDaemon(settings);
  try {
    return await work(daemon);
  } finally {
    await daemon.stop();
  }
}

/**
 * What each Save costs once the daemon is idle. The warm-up Saves start maintenance (it runs
 * every 10 Saves), which archives many of the imported memories, dated 2025, as decayed; with
 * the vault on, each archived memory's file is then written again. The Saves are timed once that
 * run (awaited through Clean, which waits for it) and those files are done: a backlog's effect
 * on Saves is the row timed while an import's files are written.
 */
async function timeSaves(daemon: BenchDaemon, corpus: SyntheticCorpus, seed: number, vaultOn: boolean): Promise<LatencySummary> {
  const next = corpus.memories(seed);
  const save = () => daemon.clients.memory.save({ ...next(), importance: 3, confidence: 0.5 });
  for (let i = 0; i < SAVE_WARMUP; i += 1) await save();
  await daemon.clients.admin.clean({ dryRun: false });
  if (vaultOn) await filesWritten(daemon);
  return measureSequential(SAVES, 0, save);
}

/** Waits until the vault has no file left to write; returns the seconds it took. */
async function filesWritten(daemon: BenchDaemon, progress?: (left: number) => void): Promise<number> {
  const started = performance.now();
  let lastReport = started;
  await untilTrue(async () => {
    const pending = Number((await daemon.clients.vault.getVaultStatus({})).pending);
    if (progress && performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      progress(pending);
    }
    return pending === 0;
  }, 60 * 60_000, 100);
  return (performance.now() - started) / 1000;
}

async function untilTrue(check: () => boolean | Promise<boolean>, giveUpMs = GIVE_UP_MS, pollMs = POLL_MS): Promise<void> {
  const deadline = performance.now() + giveUpMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`gave up after ${giveUpMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

const KIND_NAMES: readonly MemoryKind[] = ["fact", "decision", "preference", "procedure", "episode", "trace", "idea", "rule", "task", "context"];

/** The daemon's kind name of a proto kind number (MEMORY_KIND_FACT = 1 is "fact"). */
function kindName(kind: number): MemoryKind {
  return KIND_NAMES[kind - 1] ?? "fact";
}

export function formatVault(r: VaultResult): string {
  const ms = (l: LatencySummary) => [l.p50Ms.toFixed(2), l.p99Ms.toFixed(2)];
  const judged = (what: string, target: string, met: boolean) => `${target}: ${verdict(met, `vault, ${what}: ${target}`)}`;
  const table = formatTable(
    [{ title: "vault" }, { title: "p50 ms", right: true }, { title: "p99 ms", right: true }, { title: "target" }],
    [
      ["Save, vault off", ...ms(r.saveOff), "-"],
      ["Save, vault on", ...ms(r.saveOn), judged("Save, vault on", `p50 <= ${VAULT_TARGETS.saveP50Ms}`, r.saveOn.p50Ms <= VAULT_TARGETS.saveP50Ms)],
      [`Save while an import's ${count(r.memories)} files are written`, ...ms(r.saveWhileImportWrites), "-"],
      ["Save until its file exists", ...ms(r.changeToFile), judged("Save until its file exists", `p50 <= ${VAULT_TARGETS.changeToFileP50Ms}`, r.changeToFile.p50Ms <= VAULT_TARGETS.changeToFileP50Ms)],
      ["file edit until Search finds it", ...ms(r.editToSearch), judged("file edit until Search finds it", `p50 <= ${VAULT_TARGETS.editToSearchP50Ms}`, r.editToSearch.p50Ms <= VAULT_TARGETS.editToSearchP50Ms)],
    ],
  );
  const scaled = r.rebuild.memories === 100_000 ? "" : ` (the target is for 100k: run with --vault-memories 100000)`;
  return [
    `keyword only (embedding excluded: the rebuild's re-embedding is the embedder's throughput, in the embed and drain sections); ${count(r.memories)} memories imported first; ${SAVES} Saves per row`,
    "",
    table,
    "",
    `Save rows: vault off and on are timed once maintenance and the vault are idle; the last row right after a second import, ${count(r.filesLeftAfterSaves)} files still to write when its Saves were done`,
    `files written after an import: ${r.filesPerSecond.toFixed(0)} per second (each atomic and fsynced, rendered and written in the vault's file thread)`,
    `rebuild: ${count(r.rebuild.memories)} memories written to the vault in ${r.rebuild.writeSeconds.toFixed(1)} s; database deleted; memd started on the vault alone ` +
      `had ${count(r.rebuild.restored)} back in ${r.rebuild.rebuildSeconds.toFixed(1)} s, start-up included: ` +
      `${judged("rebuild", `target <= ${VAULT_TARGETS.rebuild100kSeconds} s for 100k`, r.rebuild.rebuildSeconds * (100_000 / r.rebuild.memories) <= VAULT_TARGETS.rebuild100kSeconds)}${scaled}`,
  ].join("\n");
}
