import { prefixWordsPerCode, readCodeFactor, readCodeWords, wordsPerCode } from "./code-words.js";

/**
 * The codes of one partition (project) in growable typed arrays: the Hamming prefix words,
 * the remaining words, the rescaling factors and the ids, each slot at the same index.
 * Slots stay dense (removal moves the last slot into the gap), so a scan never skips holes.
 */
export class PartitionCodes {
  readonly prefixWords: number;
  readonly tailWords: number;
  private readonly signBytes: number;
  count = 0;
  prefix: Int32Array;
  tail: Int32Array;
  factors: Float32Array;
  ids: Float64Array;

  constructor(
    readonly name: string,
    dimensions: number,
  ) {
    this.prefixWords = prefixWordsPerCode(dimensions);
    this.tailWords = wordsPerCode(dimensions) - this.prefixWords;
    this.signBytes = Math.ceil(dimensions / 8);
    this.prefix = new Int32Array(0);
    this.tail = new Int32Array(0);
    this.factors = new Float32Array(0);
    this.ids = new Float64Array(0);
  }

  /** Appends a code and returns its slot. */
  append(id: number, code: Uint8Array): number {
    if (this.count === this.ids.length) this.grow(Math.max(16, this.count * 2));
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

  /** Bytes of the arrays, spare capacity included. */
  get byteLength(): number {
    return this.prefix.byteLength + this.tail.byteLength + this.factors.byteLength + this.ids.byteLength;
  }

  private grow(capacity: number): void {
    this.prefix = resized(this.prefix, capacity * this.prefixWords);
    this.tail = resized(this.tail, capacity * this.tailWords);
    this.factors = resized(this.factors, capacity);
    this.ids = resized(this.ids, capacity);
  }
}

function resized<T extends Int32Array | Float32Array | Float64Array>(array: T, length: number): T {
  const copy = new (array.constructor as new (length: number) => T)(length);
  copy.set(array);
  return copy;
}
