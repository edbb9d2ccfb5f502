import { resized } from "../typed-arrays.js";

/**
 * What BM25 reads of a scope of groups of rows (projects, in the search mirror), so that a
 * search scoped to a few groups ranks with the statistics of those groups alone, as an index of nothing else would: one
 * large project's vocabulary then no longer decides how rare a word is in a small one (a chat
 * project saying "tonight" in every session makes the word worthless in a coding project
 * that used it once).
 *
 * Only each group's rows and tokens are kept, 16 bytes a group. A term's rows within a scope
 * are counted from its posting list at search time (rowsInGroups) instead of kept per (term,
 * group): on the three eval sets in one store (7,810 rows, 111 projects) those counts were
 * 528k pairs, about 22 MB of Map entries, against a scan of the query's lists that costs
 * about a microsecond per thousand postings.
 */
export class GroupSizes {
  private rows = new Float64Array(0);
  private tokens = new Float64Array(0);

  /** Counts a row of `group`, `length` tokens long. */
  add(group: number, length: number): void {
    this.count(group, length, 1);
  }

  /** Takes back a row counted by add. */
  remove(group: number, length: number): void {
    this.count(group, length, -1);
  }

  /** How many rows the groups set in `groups` (indexed by group) hold, and their tokens. */
  of(groups: Uint8Array): { rows: number; tokens: number } {
    let rows = 0;
    let tokens = 0;
    for (let group = 0; group < Math.min(groups.length, this.rows.length); group++) {
      if (groups[group] !== 1) continue;
      rows += this.rows[group] as number;
      tokens += this.tokens[group] as number;
    }
    return { rows, tokens };
  }

  private count(group: number, length: number, step: 1 | -1): void {
    if (group >= this.rows.length) {
      const capacity = Math.max(16, this.rows.length * 2, group + 1);
      this.rows = resized(this.rows, capacity);
      this.tokens = resized(this.tokens, capacity);
    }
    this.rows[group] = (this.rows[group] as number) + step;
    this.tokens[group] = (this.tokens[group] as number) + step * length;
  }
}

/** How many of the first `size` slots hold a row of the groups set in `groups` (a row's group is its key's high 24 bits). */
export function rowsInGroups(slots: Int32Array, size: number, keys: Uint32Array, groups: Uint8Array): number {
  let rows = 0;
  for (let i = 0; i < size; i++) if (groups[(keys[slots[i] as number] as number) >>> 8] === 1) rows += 1;
  return rows;
}
