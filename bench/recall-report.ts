import type { LatencySummary } from "./latency.js";
import type { Layout } from "./recall-options.js";
import type { Mean, RecallScores, ScoredRun, ScoredSuggest, SuggestScores } from "./recall-metrics.js";
import { formatTable, numericColumns } from "./table.js";

export const MODES = ["keyword", "vector", "hybrid"] as const;
export type ModeName = (typeof MODES)[number];

/** One search mode's outcome: scores and latency, or why the mode could not be measured. */
export type ModeResult =
  | { mode: ModeName; ok: true; scores: ScoredRun; latency: LatencySummary }
  | { mode: ModeName; ok: false; reason: string };

export interface RecallReport {
  /**
   * The set as measured: in one store or one per project (`stores` daemons), how many memories
   * and queries were loaded, and queries no store could take (asked in no project, per project).
   */
  dataset: { dir: string; layout: Layout; stores: number; memories: number; queries: number; unplaced: number; sampled: boolean };
  /** What the daemon reported, and the MEMD_EMBEDDER it was started with. */
  embedder: { setting: string; provider: string; model: string; dimensions: number; state: string };
  load: { seconds: number; embedSeconds: number; pendingAtStart: number; pendingAtEnd: number; timedOut: boolean };
  modes: ModeResult[];
  /** Suggest with each query as the prompt: what a prompt hook would inject. */
  suggest: { ok: true; scores: ScoredSuggest; latency: LatencySummary } | { ok: false; reason: string };
  runsDir: string;
  totalSeconds: number;
}

/**
 * What a mode is called in the report: hybrid search is what the eval calls the fused ranking,
 * but without vectors it is keyword and graph alone, and judging it as fused would be wrong.
 */
export function modeLabel(mode: ModeName, vectors: boolean): string {
  return mode === "hybrid" && !vectors ? "hybrid (no vectors)" : mode;
}

function jsonKey(mode: ModeName, vectors: boolean): string {
  return mode === "hybrid" ? (vectors ? "fused" : "hybrid_no_vectors") : mode;
}

/** Whether the daemon searched with vectors at all. */
function hasVectors(report: RecallReport): boolean {
  return report.embedder.provider !== "none";
}

/** The set's name in the report and the JSON: its directory, and its layout when that is per project. */
export function setName(report: RecallReport): string {
  return report.dataset.layout === "one-store" ? report.dataset.dir : `${report.dataset.dir} (per project)`;
}

/** The report as text: a summary of every mode, then one table per measured mode, by kind. */
export function formatRecallReport(report: RecallReport): string {
  const { dataset, embedder, load } = report;
  const vectors = hasVectors(report);
  const stores = dataset.layout === "one-store" ? "all projects in one store" : `one store per project (${dataset.stores} stores)`;
  const lines = [
    `memd recall benchmark: ${dataset.dir} (${dataset.memories} memories, ${dataset.queries} queries${dataset.sampled ? ", a fixed sample" : ""}), ` +
      `${stores}, limit 10, project-scoped`,
    `MEMD_EMBEDDER=${embedder.setting}: embedder ${embedder.provider}${embedder.model ? ` ${embedder.model}` : ""}` +
      `${embedder.dimensions ? ` (${embedder.dimensions} dims)` : ""}, state ${embedder.state}; ` +
      `import ${load.seconds.toFixed(1)} s, embedding ${load.embedSeconds.toFixed(1)} s for ${load.pendingAtStart} queued`,
  ];
  if (dataset.unplaced > 0) lines.push(`${dataset.unplaced} queries asked in no project are left out: no project's store can take them`);
  if (load.timedOut) {
    lines.push(`WARNING: the embedding queue did not drain (${load.pendingAtEnd} memories still waiting): vector and hybrid figures cover only the embedded memories`);
  }
  lines.push(
    "",
    formatTable(
      numericColumns(["mode", ...SCORE_TITLES, "search p50 ms", "p99 ms"]),
      report.modes.map((r) =>
        r.ok
          ? [modeLabel(r.mode, vectors), ...scoreCells(r.scores.all), r.latency.p50Ms.toFixed(1), r.latency.p99Ms.toFixed(1)]
          : [modeLabel(r.mode, vectors), ...[...SCORE_TITLES, "", ""].map(() => "n/a")],
      ),
    ),
  );
  for (const r of report.modes) {
    lines.push("", r.ok ? `${modeLabel(r.mode, vectors)}:` : `${modeLabel(r.mode, vectors)}: n/a (${r.reason})`);
    if (!r.ok) continue;
    const rows = [["all", r.scores.all] as const, ...r.scores.byKind];
    lines.push(
      formatTable(
        numericColumns(["kind", ...SCORE_TITLES, "n rel / n must_not"]),
        rows.map(([kind, s]) => [kind, ...scoreCells(s), `${s["recall@5"].count} / ${s.violations.count}`]),
      ),
    );
  }
  const { suggest } = report;
  lines.push("", suggest.ok ? `suggest (each query as a prompt; p50 ${suggest.latency.p50Ms.toFixed(1)} ms):` : `suggest: n/a (${suggest.reason})`);
  if (suggest.ok) {
    const rows = [["all", suggest.scores.all] as const, ...suggest.scores.byKind];
    lines.push(
      formatTable(
        numericColumns(["kind", "prompts", "with a relevant pointer", "pointers", "precision", "must_not injected", "silent"]),
        rows.map(([kind, s]) => [kind, ...suggestCells(s)]),
      ),
    );
  }
  lines.push("", `ranked runs (JSONL, dataset ids) in ${report.runsDir}`, `total ${report.totalSeconds.toFixed(1)} s`);
  return lines.join("\n");
}

/**
 * One line for a set: fused recall against the best single source (fusion must never lose to
 * it), and what Suggest injects. Without vectors hybrid is not fused, and no verdict is given.
 */
export function summaryLine(report: RecallReport): string {
  const vectors = hasVectors(report);
  const scores = (mode: ModeName) => {
    const r = report.modes.find((m) => m.mode === mode);
    return r?.ok ? r.scores.all : null;
  };
  const cell = (s: RecallScores | null, k: "recall@5" | "recall@10") => (s?.[k].value == null ? "n/a" : s[k].value.toFixed(3));
  const fused = scores("hybrid");
  const singles = (["keyword", "vector"] as const).map((mode) => ({ mode, s: scores(mode) }));
  const best = (k: "recall@5" | "recall@10") =>
    singles.reduce((a, b) => ((b.s?.[k].value ?? -1) > (a.s?.[k].value ?? -1) ? b : a));
  const verdict = (k: "recall@5" | "recall@10") => {
    const b = best(k);
    const ok = !vectors || (fused?.[k].value ?? -1) >= (b.s?.[k].value ?? Infinity);
    return `R@${k.slice(7)} ${cell(fused, k)} vs ${b.mode} ${cell(b.s, k)}${ok ? "" : " (LOSES)"}`;
  };
  const any = (s: RecallScores | null) => `any@5 ${s?.["any@5"].value?.toFixed(3) ?? "n/a"}, any@10 ${s?.["any@10"].value?.toFixed(3) ?? "n/a"}`;
  const { suggest } = report;
  const suggestText = suggest.ok
    ? `suggest ${suggest.scores.all.covered.value}/${suggest.scores.all.covered.of} prompts with a relevant pointer, precision ${suggest.scores.all.precision?.toFixed(2) ?? "n/a"}, must_not ${suggest.scores.all.mustNot}`
    : "suggest n/a";
  return `${setName(report)} [${report.embedder.setting}]: ${vectors ? "fused" : "hybrid (no vectors)"} ${verdict("recall@5")}, ${verdict("recall@10")} (${any(fused)}); ${suggestText}`;
}

/**
 * The figures as one JSON object: {"fused": {...}, "keyword": {...}, "vector": {...},
 * "by_kind": {"fused": {kind: {...}}, ...}}, each mode null when it could not be measured.
 */
export function recallJson(report: RecallReport): Record<string, unknown> {
  const overall: Record<string, unknown> = {};
  const byKind: Record<string, unknown> = {};
  const latency: Record<string, number | null> = {};
  for (const mode of ["hybrid", "keyword", "vector"] as const) {
    const r = report.modes.find((m) => m.mode === mode);
    const key = jsonKey(mode, hasVectors(report));
    overall[key] = r?.ok ? jsonScores(r.scores.all) : null;
    byKind[key] = r?.ok ? Object.fromEntries([...r.scores.byKind].map(([k, s]) => [k, jsonScores(s)])) : null;
    latency[key] = r?.ok ? r.latency.p50Ms : null;
  }
  const suggest = report.suggest.ok ? report.suggest.scores.all : null;
  return {
    layout: report.dataset.layout,
    sampled: report.dataset.sampled,
    ...overall,
    by_kind: byKind,
    latency_p50_ms: latency,
    suggest: suggest && { prompts: suggest.prompts, covered: suggest.covered.value, coverable: suggest.covered.of, pointers: suggest.pointers, precision: suggest.precision, must_not: suggest.mustNot },
    runs_dir: report.runsDir,
  };
}

function jsonScores(s: RecallScores): Record<string, number | null> {
  const round = (m: Mean) => (m.value === null ? null : Math.round(m.value * 10_000) / 10_000);
  return {
    "recall@5": round(s["recall@5"]),
    "recall@10": round(s["recall@10"]),
    "any@5": round(s["any@5"]),
    "any@10": round(s["any@10"]),
    "all@10": round(s["all@10"]),
    "ndcg@10": round(s["ndcg@10"]),
    violations: round(s.violations),
  };
}

function suggestCells(s: SuggestScores): string[] {
  return [String(s.prompts), `${s.covered.value} / ${s.covered.of}`, String(s.pointers), s.precision === null ? "-" : s.precision.toFixed(3), String(s.mustNot), String(s.silent)];
}

const SCORE_TITLES = ["R@5", "R@10", "any@5", "any@10", "all@10", "nDCG@10", "viol@5"];

function scoreCells(s: RecallScores): string[] {
  const cell = (m: Mean) => (m.value === null ? "-" : m.value.toFixed(3));
  return [s["recall@5"], s["recall@10"], s["any@5"], s["any@10"], s["all@10"], s["ndcg@10"], s.violations].map(cell);
}
