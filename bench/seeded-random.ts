/** A source of uniform numbers in [0, 1), like Math.random but reproducible. */
export type Random = () => number;

/**
 * mulberry32: a tiny 32-bit PRNG. Statistically weak, but the benchmark needs the same
 * corpus on every run, not cryptographic quality.
 */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number from min to max, both included. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** One element of a non-empty list, uniformly. */
export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/** Shuffles a copy (Fisher-Yates), so that list order says nothing about frequency. */
export function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Draws items with a Zipf-like frequency: the k-th item about 1/k^exponent as often as the first. */
export interface ZipfSampler<T> {
  sample(random: Random): T;
}

/**
 * Natural language and code both follow Zipf's law, which is what gives keyword search its
 * realistic mix of terms that match thousands of memories and terms that match a handful.
 */
export function zipfSampler<T>(items: readonly T[], exponent = 1): ZipfSampler<T> {
  if (items.length === 0) throw new Error("zipf over an empty list");
  const cumulative = new Float64Array(items.length);
  let total = 0;
  for (let k = 0; k < items.length; k += 1) {
    total += 1 / (k + 1) ** exponent;
    cumulative[k] = total;
  }
  return {
    sample(random) {
      const target = random() * total;
      let lo = 0;
      let hi = items.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((cumulative[mid] as number) < target) lo = mid + 1;
        else hi = mid;
      }
      return items[lo] as T;
    },
  };
}
