/**
 * BM25 as SQLite FTS5's bm25() computes it (ext/fts5/fts5_aux.c), so that the in-memory index
 * ranks exactly like the FTS5 table it mirrors: the IDF of a phrase counts the rows holding
 * it, a non-positive IDF (a phrase in over half the rows) is floored, a phrase's frequency in
 * a row is the sum of its column weights over its occurrences, and a row's length is its token
 * count over all columns. Higher is better here (FTS5 returns the negation).
 */

const K1 = 1.2;
const B = 0.75;
/** What FTS5 uses instead of an IDF at or below zero, so such a phrase still counts a little. */
const FLOOR_IDF = 1e-6;

export function bm25Idf(rows: number, rowsWithPhrase: number): number {
  const idf = Math.log((rows - rowsWithPhrase + 0.5) / (rowsWithPhrase + 0.5));
  return idf > 0 ? idf : FLOOR_IDF;
}

/** One phrase's contribution to a row's score, its operations in FTS5's order so the doubles agree. */
export function bm25Term(idf: number, frequency: number, rowLength: number, averageLength: number): number {
  return idf * ((frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * rowLength) / averageLength)));
}
