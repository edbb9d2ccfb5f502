import { resized } from "../typed-arrays.js";

/** Between two columns in a row's token ids, so that no phrase matches across them. */
export const COLUMN_BREAK = -1;

/**
 * Every row's token ids in order, one row after another in one array (a row's start and
 * count per slot): checking phrases visits thousands of rows, and an array object per row
 * cost a cache miss or two each before its first token was read. A slot written again
 * leaves its old tokens behind until the index compacts.
 */
export class RowTokens {
  private arena = new Int32Array(0);
  private arenaUsed = 0;
  private starts = new Int32Array(0);
  private counts = new Int32Array(0);

  /** Ids written so far, those a slot written again left behind included. */
  get used(): number {
    return this.arenaUsed;
  }

  /** Makes room for slots below `slots`. */
  reserve(slots: number): void {
    this.starts = resized(this.starts, slots);
    this.counts = resized(this.counts, slots);
  }

  set(slot: number, ids: Int32Array): void {
    // Grown by a quarter, not doubled: the arena is the index's largest array (20-30 MB at 100k
    // memories), and doubling left up to half of it unused for good.
    if (this.arenaUsed + ids.length > this.arena.length) this.arena = resized(this.arena, Math.max(4096, Math.ceil(this.arena.length * 1.25), this.arenaUsed + ids.length));
    this.arena.set(ids, this.arenaUsed);
    this.starts[slot] = this.arenaUsed;
    this.counts[slot] = ids.length;
    this.arenaUsed += ids.length;
  }

  /** A row's token ids, as a view of the arena. */
  of(slot: number): Int32Array {
    const start = this.starts[slot] as number;
    return this.arena.subarray(start, start + (this.counts[slot] as number));
  }

  /** The summed column weights of the phrase's occurrences in a row, or -1 when it has none. */
  phraseFrequency(slot: number, ids: readonly number[], weights: readonly number[]): number {
    const tokens = this.arena;
    const first = this.starts[slot] as number;
    const end = first + (this.counts[slot] as number);
    let frequency = -1;
    let column = 0;
    for (let start = first; start + ids.length <= end; start++) {
      if (tokens[start] === COLUMN_BREAK) {
        column += 1;
        continue;
      }
      let k = 0;
      while (k < ids.length && tokens[start + k] === ids[k]) k++;
      if (k === ids.length) frequency = Math.max(frequency, 0) + (weights[column] ?? 0);
    }
    return frequency;
  }
}

/** The row's tokens by column, as names. */
export function splitColumns(ids: Int32Array, names: readonly string[]): string[][] {
  const columns: string[][] = [[]];
  for (const id of ids) {
    if (id === COLUMN_BREAK) columns.push([]);
    else (columns.at(-1) as string[]).push(names[id] as string);
  }
  return columns;
}

/** The tokens of a row, column breaks left out. */
export function countTokens(ids: Int32Array): number {
  let n = 0;
  for (const id of ids) if (id !== COLUMN_BREAK) n++;
  return n;
}
