/**
 * Keeps the `capacity` highest-scoring items seen (a min-heap on typed arrays), so choosing
 * a few hundred of many thousands costs a comparison for most and no allocation.
 */
export class TopScores {
  private readonly scores: Float64Array;
  private readonly items: Int32Array;
  private count = 0;

  constructor(readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.items = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The score an item must beat to get in once the heap is full. */
  get floor(): number {
    return this.count < this.capacity ? Number.NEGATIVE_INFINITY : (this.scores[0] as number);
  }

  push(score: number, item: number): void {
    if (this.count < this.capacity) {
      this.siftUp(this.count, score, item);
      this.count += 1;
    } else if (score > (this.scores[0] as number)) {
      this.siftDown(score, item);
    }
  }

  /** The kept items, best first. */
  itemsBestFirst(): Int32Array {
    const order = Array.from({ length: this.count }, (_, i) => i);
    order.sort((a, b) => (this.scores[b] as number) - (this.scores[a] as number));
    return Int32Array.from(order, (i) => this.items[i] as number);
  }

  private siftUp(at: number, score: number, item: number): void {
    let i = at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((this.scores[parent] as number) <= score) break;
      this.scores[i] = this.scores[parent] as number;
      this.items[i] = this.items[parent] as number;
      i = parent;
    }
    this.scores[i] = score;
    this.items[i] = item;
  }

  private siftDown(score: number, item: number): void {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.count) break;
      const right = left + 1;
      const child = right < this.count && (this.scores[right] as number) < (this.scores[left] as number) ? right : left;
      if ((this.scores[child] as number) >= score) break;
      this.scores[i] = this.scores[child] as number;
      this.items[i] = this.items[child] as number;
      i = child;
    }
    this.scores[i] = score;
    this.items[i] = item;
  }
}
