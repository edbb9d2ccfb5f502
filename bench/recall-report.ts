import type { LatencySummary } from "./latency.js";
import { QUERY_KINDS } from "./recall-dataset.js";
import type { Mean, RecallScores, ScoredRun } from "./recall-metrics.js";
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
    const rows = [["all", r.scores.all] as const, ...QUERY_KINDS.map((k) => [k, r.scores.byKind[k]] as const)];
    lines.push(
      formatTable(
        numericColumns(["kind", "R@5", "R@10", "nDCG@10", "viol@5", "n rel / n must_not"]),
        rows.map(([kind, s]) => [kind, ...scoreCells(s), `${s["recall@5"].count} / ${s.violations.count}`]),
      ),
    );
  }
  lines.push("", `ranked runs (JSONL, dataset ids) in ${report.runsDir}`, `total ${report.totalSeconds.toFixed(1)} s`);
  return lines.join("\n");
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
    byKind[key] = r?.ok ? Object.fromEntries(QUERY_KINDS.map((k) => [k, jsonScores(r.scores.byKind[k])])) : null;
    latency[key] = r?.ok ? r.latency.p50Ms : null;
  }
  return { ...overall, by_kind: byKind, latency_p50_ms: latency, runs_dir: report.runsDir };
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

function scoreCells(s: RecallScores): string[] {
  const cell = (m: Mean) => (m.value === null ? "-" : m.value.toFixed(3));
  return [cell(s["recall@5"]), cell(s["recall@10"]), cell(s["ndcg@10"]), cell(s.violations)];
}
