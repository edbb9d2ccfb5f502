import { prefixWordsPerCode, readCodeFactor, readCodeWords, wordsPerCode } from "./code-words.js";
import { resized } from "../typed-arrays.js";
import type { KernelArena } from "./kernel-arena.js";

/**
 * The codes of one partition (project) in growable arrays: the Hamming prefix words (in the
 * kernels' memory, where the Hamming pass runs), the remaining words, the rescaling factors
 * and the ids, each slot at the same index. Slots stay dense (removal moves the last slot
 * into the gap), so a scan never skips holes.
 */
export class PartitionCodes {
  readonly prefixWords: number;
  readonly tailWords: number;
  private readonly signBytes: number;
  count = 0;
  /** Where the prefixes start in the arena's memory. */
  prefixAt = 0;
  private capacity = 0;
  tail: Int32Array;
  factors: Float32Array;
  ids: Float64Array;

  constructor(
    readonly name: string,
    dimensions: number,
    private readonly arena: KernelArena,
  ) {
    this.prefixWords = prefixWordsPerCode(dimensions);
    this.tailWords = wordsPerCode(dimensions) - this.prefixWords;
    this.signBytes = Math.ceil(dimensions / 8);
    this.tail = new Int32Array(0);
    this.factors = new Float32Array(0);
    this.ids = new Float64Array(0);
  }

  /** The prefixes, as a view of the arena's memory now (an allocation anywhere may move its buffer). */
  get prefix(): Int32Array {
    return new Int32Array(this.arena.buffer, this.prefixAt, this.capacity * this.prefixWords);
  }

  /** Appends a code and returns its slot. */
  append(id: number, code: Uint8Array): number {
    if (this.count === this.capacity) this.grow(Math.max(16, this.count * 2));
    const slot = this.count;
    this.count += 1;
    this.ids[slot] = id;
    this.write(slot, code);
    return slot;
  }

  /** Overwrites the code in a slot (same id, new vector). */
  write(slot: number, code: Uint8Array): void {
    readCodeWords(code, this.signBytes, 0, this.prefixWords, this.prefix, slot * this.prefixWords);
    readCodeWords(code, this.signBytes, this.prefixWords, this.prefixWords + this.tailWords, this.tail, slot * this.tailWords);
    this.factors[slot] = readCodeFactor(code, this.signBytes);
  }

  /** Empties a slot by moving the last one into it; returns the id that moved, if any. */
  removeAt(slot: number): number | undefined {
    const last = this.count - 1;
    this.count = last;
    if (slot === last) return undefined;
    this.prefix.copyWithin(slot * this.prefixWords, last * this.prefixWords, (last + 1) * this.prefixWords);
    this.tail.copyWithin(slot * this.tailWords, last * this.tailWords, (last + 1) * this.tailWords);
    this.factors[slot] = this.factors[last] as number;
    const moved = this.ids[last] as number;
    this.ids[slot] = moved;
    return moved;
  }

  /** Bytes of the arrays outside the arena, spare capacity included. */
  get byteLength(): number {
    return this.tail.byteLength + this.factors.byteLength + this.ids.byteLength;
  }

  private grow(capacity: number): void {
    const bytes = this.capacity * this.prefixWords * 4;
    const at = this.arena.alloc(capacity * this.prefixWords * 4);
    new Uint8Array(this.arena.buffer).copyWithin(at, this.prefixAt, this.prefixAt + bytes);
    if (this.capacity > 0) this.arena.free(this.prefixAt, bytes);
    this.prefixAt = at;
    this.capacity = capacity;
    this.tail = resized(this.tail, capacity * this.tailWords);
    this.factors = resized(this.factors, capacity);
    this.ids = resized(this.ids, capacity);
  }
}
