import { mulberry32, type Random } from "./seeded-random.js";

/**
 * Synthetic embeddings shaped like real ones. Calibrated against 2,400 sentences embedded with
 * the local universal-sentence-encoder model (mean vector of length 0.69, mean pairwise cosine
 * 0.47, nearest neighbour of a held-out sentence at 0.77 and tenth at 0.69 among 2,000, 79% of
 * the centred variance in 64 principal directions, a few dimensions that barely vary): vectors
 * share a common direction, fall into topics and, within them, clusters of uneven popularity,
 * and vary along a decaying spectrum, so they are neither uniform on the sphere (far harder
 * than real data) nor tight clumps (far easier).
 */
export interface ClusteredVectorsOptions {
  dimensions: number;
  seed: number;
  topics?: number;
  clusters?: number;
}

export interface ClusteredVectors {
  dimensions: number;
  /** `count` unit vectors, one after another in one array; each seed gives its own stream. */
  sample(count: number, seed: number): Float32Array;
}

// Weights of the common direction, the topic, the cluster and the per-vector variation.
const COMMON = 0.95;
const TOPIC = 0.55;
const CLUSTER = 0.6;
const VARIATION = 0.65;
// Principal directions drawn explicitly; the rest of the spectrum is spread evenly.
const EXPLICIT_DIRECTIONS = 128;
// Per-vector variation mixes a few of a pool of shaped directions, so that drawing a vector
// costs O(dimensions) rather than O(dimensions^2).
const POOL = 4096;
const MIXED = 8;
// Cluster k is drawn with weight 1/sqrt(k + 1): a few busy clusters, a long tail of quiet ones.
const POPULARITY_EXPONENT = 0.5;
// Quantiles (0, 1, 5, 25, 50, 75, 95, 99, 100%) of the standard deviation of each dimension
// of the real embeddings, relative to the median: most alike, a tail that barely varies.
const SPREAD_AT = [0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1];
const SPREAD = [0.22, 0.34, 0.49, 0.87, 1, 1.08, 1.19, 1.27, 1.43];

export function createClusteredVectors(options: ClusteredVectorsOptions): ClusteredVectors {
  const { dimensions, seed } = options;
  const topics = options.topics ?? 64;
  const clusters = options.clusters ?? 3000;
  const random = mulberry32(seed);
  const shaped = spectrumShaper(dimensions, random);
  const common = unit(gaussians(random, dimensions, 1));
  const topicCentres = Array.from({ length: topics }, () => scaled(shaped(), TOPIC));
  const centres = new Float32Array(clusters * dimensions);
  for (let c = 0; c < clusters; c += 1) {
    const topic = topicCentres[Math.floor(random() * topics)] as Float64Array;
    const own = shaped();
    for (let d = 0; d < dimensions; d += 1) {
      centres[c * dimensions + d] = COMMON * (common[d] as number) + (topic[d] as number) + CLUSTER * (own[d] as number);
    }
  }
  const pool = new Float32Array(POOL * dimensions);
  for (let p = 0; p < POOL; p += 1) pool.set(scaled(shaped(), VARIATION), p * dimensions);
  const spread = Float64Array.from({ length: dimensions }, () => interpolate(SPREAD_AT, SPREAD, random()));
  const popularity = new Float64Array(clusters);
  for (let c = 0, total = 0; c < clusters; c += 1) {
    total += (c + 1) ** -POPULARITY_EXPONENT;
    popularity[c] = total;
  }

  return {
    dimensions,
    sample(count, sampleSeed) {
      const r = mulberry32(sampleSeed);
      const out = new Float32Array(count * dimensions);
      const x = new Float64Array(dimensions);
      for (let i = 0; i < count; i += 1) {
        const cluster = drawCumulative(popularity, r() * (popularity[clusters - 1] as number));
        for (let d = 0; d < dimensions; d += 1) x[d] = centres[cluster * dimensions + d] as number;
        for (let m = 0; m < MIXED; m += 1) {
          const from = Math.floor(r() * POOL) * dimensions;
          const weight = gaussian(r) / Math.sqrt(MIXED);
          for (let d = 0; d < dimensions; d += 1) x[d] = (x[d] as number) + weight * (pool[from + d] as number);
        }
        let norm = 0;
        for (let d = 0; d < dimensions; d += 1) {
          x[d] = (x[d] as number) * (spread[d] as number);
          norm += (x[d] as number) ** 2;
        }
        norm = Math.sqrt(norm);
        for (let d = 0; d < dimensions; d += 1) out[i * dimensions + d] = (x[d] as number) / norm;
      }
      return out;
    },
  };
}

/**
 * Draws vectors of expected squared length 1 whose variance along the i-th of a fixed set of
 * random directions falls as 1/(i+1), the decay seen in real sentence embeddings.
 */
function spectrumShaper(dimensions: number, random: Random): () => Float64Array {
  const explicit = Math.min(dimensions, EXPLICIT_DIRECTIONS);
  const weights = Array.from({ length: dimensions }, (_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const spread = weights.slice(explicit).reduce((a, b) => a + b, 0) / total;
  const directions = Array.from({ length: explicit }, () => unit(gaussians(random, dimensions, 1)));
  const scales = weights.slice(0, explicit).map((w) => Math.sqrt(w / total));
  return () => {
    const v = gaussians(random, dimensions, Math.sqrt(spread / dimensions));
    directions.forEach((direction, j) => {
      const amount = gaussian(random) * (scales[j] as number);
      for (let d = 0; d < dimensions; d += 1) v[d] = (v[d] as number) + amount * (direction[d] as number);
    });
    return v;
  };
}

/** The piecewise-linear function through (xs[i], ys[i]) at x, for ascending xs. */
function interpolate(xs: readonly number[], ys: readonly number[], x: number): number {
  for (let i = 1; i < xs.length; i += 1) {
    const x1 = xs[i] as number;
    if (x <= x1) {
      const x0 = xs[i - 1] as number;
      const y0 = ys[i - 1] as number;
      return y0 + ((x - x0) / (x1 - x0)) * ((ys[i] as number) - y0);
    }
  }
  return ys.at(-1) as number;
}

function drawCumulative(cumulative: Float64Array, target: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cumulative[mid] as number) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A standard normal number (Box-Muller). */
export function gaussian(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function gaussians(random: Random, count: number, scale: number): Float64Array {
  return Float64Array.from({ length: count }, () => gaussian(random) * scale);
}

function scaled(v: Float64Array, factor: number): Float64Array {
  return v.map((x) => x * factor);
}

function unit(v: Float64Array): Float64Array {
  const norm = Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
  return v.map((x) => x / norm);
}
