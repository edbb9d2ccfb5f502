import { resized } from "./typed-arrays.js";

/**
 * Below this, keys index the table directly; 4 bytes per key up to the largest, 256 MiB at most.
 * Memory seqs, which SQLite hands out in order, stay far below it.
 */
const MAX_TABLE_KEY = 2 ** 26;

/**
 * Slots of the in-memory indexes by key (a memory seq). Keys up to a bound index a typed array
 * directly: a Map's lookup, at random over 100k entries, costs a cache miss or two, as much as
 * the work done with the slot. Any other key goes to a Map.
 */
export class SlotTable {
  /** Per key, its slot plus one (0: none). */
  private table = new Int32Array(0);
  private readonly others = new Map<number, number>();

  /** Whether a key indexes the table directly (and is never in the slower map). */
  static direct(key: number): boolean {
    return Number.isInteger(key) && key >= 0 && key < MAX_TABLE_KEY;
  }

  get(key: number): number | undefined {
    if (key >= 0 && key < this.table.length && Number.isInteger(key)) {
      const entry = this.table[key] as number;
      return entry === 0 ? undefined : entry - 1;
    }
    return this.others.get(key);
  }

  set(key: number, slot: number): void {
    if (SlotTable.direct(key)) {
      if (key >= this.table.length) this.table = resized(this.table, Math.min(MAX_TABLE_KEY, Math.max(1024, key + 1, this.table.length * 2)));
      this.table[key] = slot + 1;
    } else {
      this.others.set(key, slot);
    }
  }

  delete(key: number): void {
    if (key >= 0 && key < this.table.length && Number.isInteger(key)) this.table[key] = 0;
    else this.others.delete(key);
  }

  get byteLength(): number {
    return this.table.byteLength + this.others.size * 40;
  }
}
