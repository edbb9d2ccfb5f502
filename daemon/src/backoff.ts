/** The wait after `failures` failures in a row (at least 1): `firstMs`, then doubling, never above `maxMs`. */
export function backoffMs(failures: number, firstMs: number, maxMs: number): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, failures - 1));
}
