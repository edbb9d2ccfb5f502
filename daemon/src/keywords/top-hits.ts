/**
 * Keeps the best `capacity` hits seen, in a heap with the worst kept hit at the root, so that
 * ranking the few best of tens of thousands of matches costs a comparison for most of them.
 * Order: rows holding every phrase first, then higher score, then lower seq (as FTS5 returns
 * equal ranks: in rowid order).
 */
export class TopHits {
  private readonly full: Uint8Array;
  private readonly scores: Float64Array;
  private readonly seqs: Float64Array;
  private count = 0;

  constructor(private readonly capacity: number) {
    this.full = new Uint8Array(capacity);
    this.scores = new Float64Array(capacity);
    this.seqs = new Float64Array(capacity);
  }

  /** Whether it holds as many hits as it keeps. */
  get filled(): boolean {
    return this.count >= this.capacity;
  }

  /** Whether push would keep this hit now. */
  wouldKeep(full: boolean, score: number, seq: number): boolean {
    if (this.count < this.capacity) return true;
    return this.capacity > 0 && worse(this.full[0] as number, this.scores[0] as number, this.seqs[0] as number, full ? 1 : 0, score, seq);
  }

  push(full: boolean, score: number, seq: number): void {
    const f = full ? 1 : 0;
    if (this.count < this.capacity) {
      this.place(this.count, f, score, seq);
      this.siftUp(this.count);
      this.count += 1;
    } else if (this.capacity > 0 && worse(this.full[0] as number, this.scores[0] as number, this.seqs[0] as number, f, score, seq)) {
      this.place(0, f, score, seq);
      this.siftDown(0);
    }
  }

  /** The kept hits, best first. */
  bestFirst(): { seq: number; score: number; full: boolean }[] {
    const hits = Array.from({ length: this.count }, (_, i) => ({
      seq: this.seqs[i] as number,
      score: this.scores[i] as number,
      full: this.full[i] === 1,
    }));
    return hits.sort((a, b) => (worse(a.full ? 1 : 0, a.score, a.seq, b.full ? 1 : 0, b.score, b.seq) ? 1 : -1));
  }

  private place(at: number, full: number, score: number, seq: number): void {
    this.full[at] = full;
    this.scores[at] = score;
    this.seqs[at] = seq;
  }

  private isWorse(i: number, j: number): boolean {
    return worse(this.full[i] as number, this.scores[i] as number, this.seqs[i] as number, this.full[j] as number, this.scores[j] as number, this.seqs[j] as number);
  }

  private swap(i: number, j: number): void {
    const [f, s, q] = [this.full[i] as number, this.scores[i] as number, this.seqs[i] as number];
    this.place(i, this.full[j] as number, this.scores[j] as number, this.seqs[j] as number);
    this.place(j, f, s, q);
  }

  private siftUp(at: number): void {
    let i = at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.isWorse(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(at: number): void {
    let i = at;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.count) return;
      const right = left + 1;
      const child = right < this.count && this.isWorse(right, left) ? right : left;
      if (!this.isWorse(child, i)) return;
      this.swap(child, i);
      i = child;
    }
  }
}

/** True when hit a ranks below hit b. */
function worse(fullA: number, scoreA: number, seqA: number, fullB: number, scoreB: number, seqB: number): boolean {
  if (fullA !== fullB) return fullA < fullB;
  if (scoreA !== scoreB) return scoreA < scoreB;
  return seqA > seqB;
}
