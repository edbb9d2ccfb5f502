import { SeqTable } from "../seq-table.js";
import { resized } from "../typed-arrays.js";
import { ensureMemory, instantiateKernels, type VectorKernels } from "./vector-kernels.js";

/** Rows scored per kernel call: the scratch space for their slots and scores is sized for it. */
const BATCH = 4096;
// The slot's factor and its entry in the id table.
const ENTRY_OVERHEAD_BYTES = 12;

/**
 * Vectors kept in memory at one byte per dimension (each scaled by its largest component), so
 * that scoring thousands of candidates is arithmetic instead of a database read per vector:
 * at 100k 768-dimensional vectors, reading 400 exact vectors cost 5-9 ms; here 5,000 are
 * scored in about half a millisecond, by a WebAssembly SIMD kernel (vector-kernels.wat) over
 * one slab in its memory. The cosine error is about 1e-3, far below the gap between
 * neighbours that matter. Up to a byte budget: past it, vectors not held are read exactly.
 */
export class ScalarVectors {
  /**
   * Slots by id. Only ids the table indexes directly are held: a Map's lookup, at random over
   * 100k entries, cost as much as scoring the row.
   */
  private readonly slotOf = new SeqTable();
  private heldCount = 0;
  private readonly freeSlots: number[] = [];
  /** Per slot: the row's scale over its norm, so that a dot product becomes a cosine. */
  private factors = new Float64Array(0);
  private slotsUsed = 0;
  private capacity = 0;
  private readonly stride: number;
  private readonly kernels: VectorKernels;
  private readonly queryAt = 0;
  private readonly slotsAt: number;
  private readonly outAt: number;
  private readonly slabAt: number;
  /** The largest query component, as an int16, for which no kernel lane can overflow. */
  private readonly queryRange: number;

  constructor(
    readonly dimensions: number,
    private readonly budgetBytes: number,
  ) {
    this.stride = Math.max(16, Math.ceil(dimensions / 16) * 16);
    this.slotsAt = this.queryAt + this.stride * 2;
    this.outAt = this.slotsAt + BATCH * 4;
    this.slabAt = this.outAt + BATCH * 8;
    this.queryRange = Math.min(32_767, Math.floor((2 ** 31 - 1) / (127 * (this.stride / 4))));
    this.kernels = instantiateKernels();
    this.reserve(0);
  }

  /** Bytes held: the kernel's memory (slab and scratch) and each entry's bookkeeping. */
  get byteLength(): number {
    return this.kernels.memory.buffer.byteLength + this.factors.byteLength + this.heldCount * ENTRY_OVERHEAD_BYTES + this.slotOf.byteLength;
  }

  has(id: number): boolean {
    return this.slotOf.get(id) !== undefined;
  }

  /** Holds a copy of the vector, unless the budget is spent (then it is left to the database). */
  set(id: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions || !SeqTable.direct(id)) return;
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      if ((this.heldCount + 1) * (this.stride + ENTRY_OVERHEAD_BYTES) > this.budgetBytes) return;
      slot = this.freeSlots.pop() ?? this.slotsUsed++;
      this.reserve(slot + 1);
      this.slotOf.set(id, slot);
      this.heldCount += 1;
    }
    let largest = 0;
    let squares = 0;
    for (const value of vector) {
      largest = Math.max(largest, Math.abs(value));
      squares += value * value;
    }
    const scale = largest > 0 ? largest / 127 : 1;
    const row = new Int8Array(this.kernels.memory.buffer, this.slabAt + slot * this.stride, this.dimensions);
    for (let d = 0; d < this.dimensions; d += 1) row[d] = Math.round((vector[d] as number) / scale);
    this.factors[slot] = squares > 0 ? scale / Math.sqrt(squares) : 0;
  }

  delete(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.heldCount -= 1;
    this.freeSlots.push(slot);
  }

  /**
   * Cosine similarities of the held vectors `ids` with the query, NaN for an id not held; or
   * undefined as soon as one is missing, when `allHeld` asks for all or nothing.
   */
  similarities(ids: ArrayLike<number>, query: Float32Array, allHeld = false): Float64Array | undefined {
    const found = new Float64Array(ids.length).fill(Number.NaN);
    const slots = new Int32Array(ids.length);
    let scored = 0;
    const at = new Int32Array(ids.length);
    for (let i = 0; i < ids.length; i += 1) {
      const slot = this.slotOf.get(ids[i] as number);
      if (slot === undefined) {
        if (allHeld) return undefined;
        continue;
      }
      slots[scored] = slot;
      at[scored] = i;
      scored += 1;
    }
    if (scored === 0) return found;
    const queryFactor = this.loadQuery(query);
    const { buffer } = this.kernels.memory;
    const slotView = new Int32Array(buffer, this.slotsAt, BATCH);
    const out = new Float64Array(buffer, this.outAt, BATCH);
    for (let start = 0; start < scored; start += BATCH) {
      const count = Math.min(BATCH, scored - start);
      slotView.set(slots.subarray(start, start + count));
      this.kernels.dots(this.queryAt, this.stride, this.slabAt, this.slotsAt, count, this.outAt);
      for (let k = 0; k < count; k += 1) {
        const similarity = (out[k] as number) * queryFactor * (this.factors[slots[start + k] as number] as number);
        found[at[start + k] as number] = Math.min(1, Math.max(-1, similarity));
      }
    }
    return found;
  }

  /** Writes the query as int16s for the kernel; returns what turns a kernel's dot product into a cosine (with the row's factor). */
  private loadQuery(query: Float32Array): number {
    let largest = 0;
    let squares = 0;
    for (const value of query) {
      largest = Math.max(largest, Math.abs(value));
      squares += value * value;
    }
    const scaled = new Int16Array(this.kernels.memory.buffer, this.queryAt, this.stride);
    if (largest === 0) {
      scaled.fill(0);
      return 0;
    }
    const scale = largest / this.queryRange;
    for (let d = 0; d < this.dimensions; d += 1) scaled[d] = Math.round((query[d] as number) / scale);
    return scale / Math.sqrt(squares);
  }

  /** Grows the slab (WebAssembly memory only grows) to hold at least `slots` rows. */
  private reserve(slots: number): void {
    if (slots <= this.capacity && this.factors.length > 0) return;
    // By a quarter at a time (memory only grows, and rarely moves when it does), never far past what the budget lets it hold.
    const capacity = Math.max(slots, Math.min(Math.max(64, Math.ceil(this.capacity * 1.25)), Math.floor(this.budgetBytes / this.stride)));
    ensureMemory(this.kernels, this.slabAt + capacity * this.stride);
    this.factors = resized(this.factors, capacity);
    this.capacity = capacity;
  }
}
