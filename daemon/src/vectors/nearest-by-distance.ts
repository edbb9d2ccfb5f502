/**
 * The positions, in order, of the distances that lie in (after, upTo]; `total` is how many
 * there are. The vector search's kernels have one (VectorKernels.gather); `scanDistances` is
 * the same in plain JavaScript.
 */
export type GatherPositions = (after: number, upTo: number, total: number) => Int32Array;

/**
 * Positions of the `want` smallest of `count` small whole-number distances that `accept`
 * keeps, nearest first (ties in position order). `histogram[d]` must count the distances
 * equal to d. A counting sort of just the buckets needed replaces a full sort; when `accept`
 * turns candidates down, more buckets are taken in further rounds, enlarged by the share
 * turned down so far.
 */
export function nearestByDistance(
  distances: Uint8Array,
  count: number,
  histogram: Int32Array,
  want: number,
  accept?: (position: number) => boolean,
  gather: GatherPositions = scanDistances(distances, count),
): Int32Array {
  const out = new Int32Array(Math.max(0, Math.min(want, count)));
  const lastBucket = histogram.length - 1;
  let taken = 0;
  let seen = 0;
  let done = -1; // buckets up to here are used up
  while (taken < out.length && done < lastBucket) {
    const need = Math.ceil(((out.length - taken) * (seen + 1)) / (taken + 1));
    let upTo = done;
    let gathered = 0;
    while (upTo < lastBucket && gathered < need) {
      upTo += 1;
      gathered += histogram[upTo] as number;
    }
    const order = bucketOrder(distances, gather(done, upTo, gathered), histogram, done, upTo);
    for (let i = 0; i < order.length && taken < out.length; i += 1) {
      const position = order[i] as number;
      seen += 1;
      if (accept === undefined || accept(position)) {
        out[taken] = position;
        taken += 1;
      }
    }
    done = upTo;
  }
  return out.subarray(0, taken);
}

/** Gathers positions by reading every distance. */
function scanDistances(distances: Uint8Array, count: number): GatherPositions {
  return (after, upTo, total) => {
    const positions = new Int32Array(total);
    let n = 0;
    for (let i = 0; i < count; i += 1) {
      const d = distances[i] as number;
      if (d > after && d <= upTo) positions[n++] = i;
    }
    return positions;
  };
}

/** The gathered positions (all with distances in (after, upTo], in position order) by distance, ties kept in order. */
function bucketOrder(distances: Uint8Array, positions: Int32Array, histogram: Int32Array, after: number, upTo: number): Int32Array {
  const next = new Int32Array(upTo - after);
  let start = 0;
  for (let d = after + 1; d <= upTo; d += 1) {
    next[d - after - 1] = start;
    start += histogram[d] as number;
  }
  const order = new Int32Array(positions.length);
  for (let i = 0; i < positions.length; i += 1) {
    const position = positions[i] as number;
    const slot = (distances[position] as number) - after - 1;
    order[next[slot] as number] = position;
    next[slot] = (next[slot] as number) + 1;
  }
  return order;
}
