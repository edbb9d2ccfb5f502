/** What scoring needs of a query. */
export interface JudgedQuery {
  qid: string;
  kind: string;
  relevant: readonly string[];
  must_not: readonly string[];
}

/** A metric's mean and how many queries it is the mean of; the mean is null over zero queries. */
export interface Mean {
  value: number | null;
  count: number;
}

export interface RecallScores {
  /** The share of a query's relevant memories in the top 5. */
  "recall@5": Mean;
  "recall@10": Mean;
  /** Queries with at least one relevant memory in the top 5 (LongMemEval's recall_any). */
  "any@5": Mean;
  "any@10": Mean;
  /** Queries with every relevant memory in the top 10 (what a multi-session answer needs). */
  "all@10": Mean;
  "ndcg@10": Mean;
  /** Share of the queries with a must_not list whose top 5 holds any of it. */
  violations: Mean;
}

export interface ScoredRun {
  all: RecallScores;
  /** By kind, in the order each kind first appears among the queries. */
  byKind: Map<string, RecallScores>;
}

/**
 * Scores a run exactly as /work/shared/eval/score.py does: recall@5, recall@10 and nDCG@10
 * (binary gain, log2 discount, ideal of min(|relevant|, 10) hits) over the queries with a
 * non-empty `relevant`; the violation rate over the queries with a non-empty `must_not`. Besides,
 * any@k and all@10 over the same queries as recall.
 * A query missing from the run counts as an empty ranking.
 */
export function scoreRun(queries: readonly JudgedQuery[], ranked: ReadonlyMap<string, readonly string[]>): ScoredRun {
  const all = newSums();
  const byKind = new Map<string, Sums>();
  for (const q of queries) {
    const ranking = ranked.get(q.qid) ?? [];
    const top5 = new Set(ranking.slice(0, 5));
    const top10 = new Set(ranking.slice(0, 10));
    const relevant = new Set(q.relevant);
    if (!byKind.has(q.kind)) byKind.set(q.kind, newSums());
    for (const sums of [all, byKind.get(q.kind) as Sums]) {
      if (relevant.size > 0) {
        sums["recall@5"].push(intersectionSize(relevant, top5) / relevant.size);
        sums["recall@10"].push(intersectionSize(relevant, top10) / relevant.size);
        sums["any@5"].push(intersectionSize(relevant, top5) > 0 ? 1 : 0);
        sums["any@10"].push(intersectionSize(relevant, top10) > 0 ? 1 : 0);
        sums["all@10"].push(intersectionSize(relevant, top10) === relevant.size ? 1 : 0);
        sums["ndcg@10"].push(ndcgAt10(ranking, relevant));
      }
      if (q.must_not.length > 0) sums.violations.push(q.must_not.some((id) => top5.has(id)) ? 1 : 0);
    }
  }
  return {
    all: means(all),
    byKind: new Map([...byKind].map(([kind, sums]) => [kind, means(sums)])),
  };
}

function ndcgAt10(ranking: readonly string[], relevant: ReadonlySet<string>): number {
  let dcg = 0;
  ranking.slice(0, 10).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(relevant.size, 10); i += 1) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

type Sums = Record<keyof RecallScores, number[]>;

function newSums(): Sums {
  return { "recall@5": [], "recall@10": [], "any@5": [], "any@10": [], "all@10": [], "ndcg@10": [], violations: [] };
}

function means(sums: Sums): RecallScores {
  const mean = (values: readonly number[]): Mean => ({
    value: values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length,
    count: values.length,
  });
  return {
    "recall@5": mean(sums["recall@5"]),
    "recall@10": mean(sums["recall@10"]),
    "any@5": mean(sums["any@5"]),
    "any@10": mean(sums["any@10"]),
    "all@10": mean(sums["all@10"]),
    "ndcg@10": mean(sums["ndcg@10"]),
    violations: mean(sums.violations),
  };
}

function intersectionSize(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n += 1;
  return n;
}

/** How Suggest did as a prompt hook: what it injected, and whether that was worth a place in the prompt. */
export interface SuggestScores {
  prompts: number;
  /** Prompts with a relevant memory that got at least one relevant pointer, of those that have one. */
  covered: { value: number; of: number };
  /** Pointers injected, over every prompt. */
  pointers: number;
  /** Injected pointers that were relevant, as a share of all injected; null when none were. */
  precision: number | null;
  /** Pointers to a must_not memory (a superseded claim, a staged guess). */
  mustNot: number;
  /** Prompts that got no pointer at all. */
  silent: number;
}

export interface ScoredSuggest {
  all: SuggestScores;
  byKind: Map<string, SuggestScores>;
}

/** Scores what Suggest injected for each query against its relevant and must_not lists. */
export function scoreSuggest(queries: readonly JudgedQuery[], pointers: ReadonlyMap<string, readonly string[]>): ScoredSuggest {
  const tally = () => ({ prompts: 0, covered: 0, coverable: 0, pointers: 0, relevant: 0, mustNot: 0, silent: 0 });
  const all = tally();
  const byKind = new Map<string, ReturnType<typeof tally>>();
  for (const q of queries) {
    const given = pointers.get(q.qid) ?? [];
    const relevant = new Set(q.relevant);
    const hits = given.filter((id) => relevant.has(id)).length;
    if (!byKind.has(q.kind)) byKind.set(q.kind, tally());
    for (const t of [all, byKind.get(q.kind) as ReturnType<typeof tally>]) {
      t.prompts += 1;
      if (relevant.size > 0) {
        t.coverable += 1;
        if (hits > 0) t.covered += 1;
      }
      t.pointers += given.length;
      t.relevant += hits;
      t.mustNot += given.filter((id) => q.must_not.includes(id)).length;
      if (given.length === 0) t.silent += 1;
    }
  }
  const scores = (t: ReturnType<typeof tally>): SuggestScores => ({
    prompts: t.prompts,
    covered: { value: t.covered, of: t.coverable },
    pointers: t.pointers,
    precision: t.pointers === 0 ? null : t.relevant / t.pointers,
    mustNot: t.mustNot,
    silent: t.silent,
  });
  return { all: scores(all), byKind: new Map([...byKind].map(([kind, t]) => [kind, scores(t)])) };
}
