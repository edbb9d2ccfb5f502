import { verdict } from "./targets.js";
import type { VectorKnnRow } from "./vector-knn.js";
import type { RealRecallRow } from "./vector-real.js";
import { type Column, count, formatTable } from "./table.js";

/** The goals from the issue; reported beside the numbers; --check fails the run on a miss. */
export interface VectorTargets {
  recallAt10Min: number;
  p50MaxMs?: number;
  p99MaxMs?: number;
}

/** Up to 100k vectors: p50 <= 5 ms, p99 <= 20 ms; up to 1M: p99 <= 50 ms; recall@10 >= 0.98 throughout. */
export function targetsFor(size: number): VectorTargets {
  if (size <= 100_000) return { recallAt10Min: 0.98, p50MaxMs: 5, p99MaxMs: 20 };
  if (size <= 1_000_000) return { recallAt10Min: 0.98, p99MaxMs: 50 };
  return { recallAt10Min: 0.98 };
}

export function formatTargets(row: VectorKnnRow): string {
  const t = targetsFor(row.size);
  const goals = [
    t.p50MaxMs === undefined ? "" : `p50 <= ${t.p50MaxMs}`,
    t.p99MaxMs === undefined ? "" : `p99 <= ${t.p99MaxMs}`,
    `recall >= ${t.recallAt10Min}`,
  ].filter(Boolean);
  const met =
    row.recallAt10 >= t.recallAt10Min &&
    (t.p50MaxMs === undefined || row.p50Ms <= t.p50MaxMs) &&
    (t.p99MaxMs === undefined || row.p99Ms <= t.p99MaxMs);
  return `${goals.join(", ")}: ${verdict(met, `vectors at ${row.size}, ${row.scope}, ${row.rescoring}: ${goals.join(", ")}`)}`;
}

export function formatVectorTable(rows: readonly VectorKnnRow[]): string {
  return formatTable(
    columns(
      ["vectors", "scope", "rescoring", "scanned", "p50 ms", "p99 ms", "recall@10", "exact/search", "build s", "load s", "index MiB", "target"],
      [true, false, false, true, true, true, true, true, true, true, true, false],
    ),
    rows.map((r) => [
      count(r.size),
      r.scope,
      r.rescoring,
      count(r.scanned),
      r.p50Ms.toFixed(2),
      r.p99Ms.toFixed(2),
      r.recallAt10.toFixed(4),
      String(r.exactPerSearch),
      r.buildSeconds.toFixed(2),
      r.loadSeconds.toFixed(2),
      (r.indexBytes / 2 ** 20).toFixed(1),
      formatTargets(r),
    ]),
  );
}

export function formatRealTable(rows: readonly RealRecallRow[]): string {
  return formatTable(
    columns(["setting", "stored", "queries", "recall@10"], [false, true, true, true]),
    rows.map((r) => [r.setting, count(r.stored), count(r.queries), r.recallAt10.toFixed(4)]),
  );
}

function columns(titles: readonly string[], right: readonly boolean[]): Column[] {
  return titles.map((title, i) => ({ title, right: right[i] ?? false }));
}
