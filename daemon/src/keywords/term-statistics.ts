import { resized } from "../typed-arrays.js";

/** Groups are a row key's high 24 bits (see KeywordScope), so term * GROUP_SPAN + group stays an exact double below 2^53. */
const GROUP_SPAN = 2 ** 24;

/**
 * What BM25 reads of a set of rows, per group of rows (a project, in the search mirror): how
 * many rows of each group hold each term, how many rows each group has and how many tokens.
 * A search scoped to a few groups then ranks with the statistics of those groups alone, as a
 * store holding only them would: one large project's vocabulary no longer decides how rare a
 * word is in a small one (a chat project saying "tonight" in every session makes the word
 * worthless in a coding project that used it once).
 *
 * Memory: a term's rows in the group where it was first seen are counted in two typed-array
 * slots (8 bytes a term); only the (term, group) pairs of a term that more groups use take a
 * Map entry. Most of a store's vocabulary belongs to one project.
 */
export class TermStatistics {
  /** Each term's first group (-1 for none yet) and how many rows of that group hold it. */
  private home = new Int32Array(0);
  private homeRows = new Int32Array(0);
  /** Rows holding a term in groups other than its home, by term * GROUP_SPAN + group. */
  private elsewhere = new Map<number, number>();
  /** Rows and tokens by group. */
  private groupRows = new Float64Array(0);
  private groupTokens = new Float64Array(0);

  /** Counts a row of `group`, `length` tokens long, holding each of `terms` (each once). */
  add(terms: Iterable<number>, group: number, length: number): void {
    this.count(terms, group, length, 1);
  }

  /** Takes back a row counted by add, with the same terms, group and length. */
  remove(terms: Iterable<number>, group: number, length: number): void {
    this.count(terms, group, length, -1);
  }

  /** How many rows of the groups set in `groups` (indexed by group) hold the term. */
  rowsWith(term: number, groups: Uint8Array): number {
    const home = term < this.home.length ? (this.home[term] as number) : -1;
    if (home < 0) return 0;
    let rows = 0;
    for (let group = 0; group < groups.length; group++) {
      if (groups[group] !== 1) continue;
      rows += group === home ? (this.homeRows[term] as number) : (this.elsewhere.get(term * GROUP_SPAN + group) ?? 0);
    }
    return rows;
  }

  /** How many rows the groups set in `groups` hold, and their tokens. */
  size(groups: Uint8Array): { rows: number; tokens: number } {
    let rows = 0;
    let tokens = 0;
    for (let group = 0; group < Math.min(groups.length, this.groupRows.length); group++) {
      if (groups[group] !== 1) continue;
      rows += this.groupRows[group] as number;
      tokens += this.groupTokens[group] as number;
    }
    return { rows, tokens };
  }

  private count(terms: Iterable<number>, group: number, length: number, step: 1 | -1): void {
    if (group >= this.groupRows.length) {
      const capacity = Math.max(16, this.groupRows.length * 2, group + 1);
      this.groupRows = resized(this.groupRows, capacity);
      this.groupTokens = resized(this.groupTokens, capacity);
    }
    this.groupRows[group] = (this.groupRows[group] as number) + step;
    this.groupTokens[group] = (this.groupTokens[group] as number) + step * length;
    for (const term of terms) {
      if (term >= this.home.length) this.reserve(term + 1);
      if (this.home[term] === -1) this.home[term] = group;
      if (this.home[term] === group) {
        this.homeRows[term] = (this.homeRows[term] as number) + step;
        continue;
      }
      const key = term * GROUP_SPAN + group;
      const rows = (this.elsewhere.get(key) ?? 0) + step;
      if (rows > 0) this.elsewhere.set(key, rows);
      else this.elsewhere.delete(key);
    }
  }

  private reserve(terms: number): void {
    const capacity = Math.max(1024, this.home.length * 2, terms);
    const before = this.home.length;
    this.home = resized(this.home, capacity);
    this.home.fill(-1, before);
    this.homeRows = resized(this.homeRows, capacity);
  }
}
