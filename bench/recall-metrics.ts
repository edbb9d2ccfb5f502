import { QUERY_KINDS, type QueryKind } from "./recall-dataset.js";

/** What scoring needs of a query. */
export interface JudgedQuery {
  qid: string;
  kind: QueryKind;
  relevant: readonly string[];
  must_not: readonly string[];
}

/** A metric's mean and how many queries it is the mean of; the mean is null over zero queries. */
export interface Mean {
  value: number | null;
  count: number;
}

export interface RecallScores {
  "recall@5": Mean;
  "recall@10": Mean;
  "ndcg@10": Mean;
  /** Share of the queries with a must_not list whose top 5 holds any of it. */
  violations: Mean;
}

export interface ScoredRun {
  all: RecallScores;
  byKind: Record<QueryKind, RecallScores>;
}

/**
 * Scores a run exactly as /work/shared/eval/score.py does: recall@5, recall@10 and nDCG@10
 * (binary gain, log2 discount, ideal of min(|relevant|, 10) hits) over the queries with a
 * non-empty `relevant`; the violation rate over the queries with a non-empty `must_not`.
 * A query missing from the run counts as an empty ranking.
 */
export function scoreRun(queries: readonly JudgedQuery[], ranked: ReadonlyMap<string, readonly string[]>): ScoredRun {
  const all = newSums();
  const byKind = Object.fromEntries(QUERY_KINDS.map((k) => [k, newSums()])) as Record<QueryKind, Sums>;
  for (const q of queries) {
    const ranking = ranked.get(q.qid) ?? [];
    const top5 = new Set(ranking.slice(0, 5));
    const top10 = new Set(ranking.slice(0, 10));
    const relevant = new Set(q.relevant);
    for (const sums of [all, byKind[q.kind]]) {
      if (relevant.size > 0) {
        sums["recall@5"].push(intersectionSize(relevant, top5) / relevant.size);
        sums["recall@10"].push(intersectionSize(relevant, top10) / relevant.size);
        sums["ndcg@10"].push(ndcgAt10(ranking, relevant));
      }
      if (q.must_not.length > 0) sums.violations.push(q.must_not.some((id) => top5.has(id)) ? 1 : 0);
    }
  }
  return {
    all: means(all),
    byKind: Object.fromEntries(QUERY_KINDS.map((k) => [k, means(byKind[k])])) as Record<QueryKind, RecallScores>,
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
  return { "recall@5": [], "recall@10": [], "ndcg@10": [], violations: [] };
}

function means(sums: Sums): RecallScores {
  const mean = (values: readonly number[]): Mean => ({
    value: values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length,
    count: values.length,
  });
  return {
    "recall@5": mean(sums["recall@5"]),
    "recall@10": mean(sums["recall@10"]),
    "ndcg@10": mean(sums["ndcg@10"]),
    violations: mean(sums.violations),
  };
}

function intersectionSize(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n += 1;
  return n;
}
