import type { LatencySummary } from "./latency.js";
import type { Mean, RecallScores, ScoredRun, ScoredSuggest, SuggestScores } from "./recall-metrics.js";
import { formatTable, numericColumns } from "./table.js";

export const MODES = ["keyword", "vector", "hybrid"] as const;
export type ModeName = (typeof MODES)[number];

/** One search mode's outcome: scores and latency, or why the mode could not be measured. */
export type ModeResult =
  | { mode: ModeName; ok: true; scores: ScoredRun; latency: LatencySummary }
  | { mode: ModeName; ok: false; reason: string };

export interface RecallReport {
  dataset: { dir: string; memories: number; queries: number };
  embedder: { provider: string; model: string; dimensions: number; state: string };
  load: { seconds: number; embedSeconds: number; pendingAtStart: number; pendingAtEnd: number; timedOut: boolean };
  modes: ModeResult[];
  /** Suggest with each query as the prompt: what a prompt hook would inject. */
  suggest: { ok: true; scores: ScoredSuggest; latency: LatencySummary } | { ok: false; reason: string };
  runsDir: string;
  totalSeconds: number;
}

// The JSON keys of the modes: hybrid search is what the eval calls the fused ranking.
const JSON_KEYS: Record<ModeName, string> = { hybrid: "fused", keyword: "keyword", vector: "vector" };

/** The report as text: a summary of every mode, then one table per measured mode, by kind. */
export function formatRecallReport(report: RecallReport): string {
  const { dataset, embedder, load } = report;
  const lines = [
    `memd recall benchmark: ${dataset.dir} (${dataset.memories} memories, ${dataset.queries} queries), limit 10, project-scoped`,
    `embedder ${embedder.provider}${embedder.model ? ` ${embedder.model}` : ""}` +
      `${embedder.dimensions ? ` (${embedder.dimensions} dims)` : ""}, state ${embedder.state}; ` +
      `import ${load.seconds.toFixed(1)} s, embedding ${load.embedSeconds.toFixed(1)} s for ${load.pendingAtStart} queued`,
  ];
  if (load.timedOut) {
    lines.push(`WARNING: the embedding queue did not drain (${load.pendingAtEnd} memories still waiting): vector and hybrid figures cover only the embedded memories`);
  }
  lines.push(
    "",
    formatTable(
      numericColumns(["mode", "R@5", "R@10", "nDCG@10", "viol@5", "search p50 ms", "p99 ms"]),
      report.modes.map((r) =>
        r.ok
          ? [r.mode, ...scoreCells(r.scores.all), r.latency.p50Ms.toFixed(1), r.latency.p99Ms.toFixed(1)]
          : [r.mode, "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"],
      ),
    ),
  );
  for (const r of report.modes) {
    lines.push("", r.ok ? `${r.mode}:` : `${r.mode}: n/a (${r.reason})`);
    if (!r.ok) continue;
    const rows = [["all", r.scores.all] as const, ...r.scores.byKind];
    lines.push(
      formatTable(
        numericColumns(["kind", "R@5", "R@10", "nDCG@10", "viol@5", "n rel / n must_not"]),
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
 * it), and what Suggest injects.
 */
export function summaryLine(report: RecallReport): string {
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
    const ok = (fused?.[k].value ?? -1) >= (b.s?.[k].value ?? Infinity);
    return `R@${k.slice(7)} ${cell(fused, k)} vs ${b.mode} ${cell(b.s, k)}${ok ? "" : " (LOSES)"}`;
  };
  const { suggest } = report;
  const suggestText = suggest.ok
    ? `suggest ${suggest.scores.all.covered.value}/${suggest.scores.all.covered.of} prompts with a relevant pointer, precision ${suggest.scores.all.precision?.toFixed(2) ?? "n/a"}, must_not ${suggest.scores.all.mustNot}`
    : "suggest n/a";
  return `${report.dataset.dir}: fused ${verdict("recall@5")}, ${verdict("recall@10")}; ${suggestText}`;
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
    const key = JSON_KEYS[mode];
    overall[key] = r?.ok ? jsonScores(r.scores.all) : null;
    byKind[key] = r?.ok ? Object.fromEntries([...r.scores.byKind].map(([k, s]) => [k, jsonScores(s)])) : null;
    latency[key] = r?.ok ? r.latency.p50Ms : null;
  }
  const suggest = report.suggest.ok ? report.suggest.scores.all : null;
  return {
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
    "ndcg@10": round(s["ndcg@10"]),
    violations: round(s.violations),
  };
}

function suggestCells(s: SuggestScores): string[] {
  return [String(s.prompts), `${s.covered.value} / ${s.covered.of}`, String(s.pointers), s.precision === null ? "-" : s.precision.toFixed(3), String(s.mustNot), String(s.silent)];
}

function scoreCells(s: RecallScores): string[] {
  const cell = (m: Mean) => (m.value === null ? "-" : m.value.toFixed(3));
  return [cell(s["recall@5"]), cell(s["recall@10"]), cell(s["ndcg@10"]), cell(s.violations)];
}
