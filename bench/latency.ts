/** p50 and p99 of a series of sequential calls, in milliseconds. */
export interface LatencySummary {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Times `count` calls one after another, after `warmup` untimed ones that let the JIT, the
 * connection and SQLite's page cache settle. `call` receives the call's index.
 */
export async function measureSequential(
  count: number,
  warmup: number,
  call: (index: number) => Promise<unknown>,
): Promise<LatencySummary> {
  for (let i = 0; i < warmup; i += 1) await call(i);
  const durations: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await call(warmup + i);
    durations.push(performance.now() - started);
  }
  return summarize(durations);
}

export function summarize(durations: readonly number[]): LatencySummary {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50Ms: round2(percentile(sorted, 0.5)),
    p99Ms: round2(percentile(sorted, 0.99)),
    maxMs: round2(sorted.at(-1) ?? 0),
  };
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] as number;
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
