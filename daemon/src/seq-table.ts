import { resized } from "./typed-arrays.js";

/**
 * Below this, keys index the table directly; at most 256 MiB for slots, 64 MiB for bytes.
 * Memory seqs, which SQLite hands out in order, stay far below it.
 */
const MAX_TABLE_KEY = 2 ** 26;

/**
 * Small whole numbers by key (a memory seq): the in-memory indexes' slots, or a row's class.
 * Keys up to a bound index a typed array directly: a Map's lookup, at random over 100k
 * entries, costs a cache miss or two, as much as the work done with the value. Any other key,
 * or a value too large for the array, goes to a Map.
 */
export class SeqTable {
  /** Per key, its value plus one (0: none, or in the map). */
  private table: Int32Array | Uint8Array;
  private readonly largest: number;
  private readonly others = new Map<number, number>();

  /** `bytes` holds values up to 254 in one byte per key instead of four, to stay in cache. */
  constructor(width: "slots" | "bytes" = "slots") {
    this.table = width === "bytes" ? new Uint8Array(0) : new Int32Array(0);
    this.largest = width === "bytes" ? 0xfe : 0x7fff_fffe;
  }

  /** Whether a key indexes the table directly (and is never in the slower map, given a value that fits). */
  static direct(key: number): boolean {
    return Number.isInteger(key) && key >= 0 && key < MAX_TABLE_KEY;
  }

  get(key: number): number | undefined {
    if (key >= 0 && key < this.table.length && Number.isInteger(key)) {
      const entry = this.table[key] as number;
      if (entry !== 0) return entry - 1;
      if (this.others.size === 0) return undefined;
    }
    return this.others.get(key);
  }

  set(key: number, value: number): void {
    if (SeqTable.direct(key) && Number.isInteger(value) && value >= 0 && value <= this.largest) {
      if (key >= this.table.length) this.table = resized(this.table, Math.min(MAX_TABLE_KEY, Math.max(1024, key + 1, this.table.length * 2)));
      this.table[key] = value + 1;
      this.others.delete(key);
    } else {
      this.delete(key);
      this.others.set(key, value);
    }
  }

  delete(key: number): void {
    if (key >= 0 && key < this.table.length && Number.isInteger(key)) this.table[key] = 0;
    this.others.delete(key);
  }

  get byteLength(): number {
    return this.table.byteLength + this.others.size * 40;
  }
}
