import { ensureMemory, instantiateKernels, type VectorKernels } from "./vector-kernels.js";

// Blocks start at 64 bytes, so every block is aligned for the kernels' 8- and 16-byte loads.
const SMALLEST = 64;

/**
 * Blocks of a kernel instance's memory for arrays that grow by doubling (see PartitionCodes):
 * sizes are powers of two, and a freed block goes back to the list of its size for the next
 * array that grows into it. WebAssembly memory never shrinks, so at worst this holds about
 * twice what is in use.
 */
export class KernelArena {
  readonly kernels: VectorKernels = instantiateKernels();
  private readonly freeBlocks = new Map<number, number[]>();
  private top = SMALLEST;

  /** The memory's buffer now; any allocation may replace it. */
  get buffer(): ArrayBuffer {
    return this.kernels.memory.buffer;
  }

  get byteLength(): number {
    return this.kernels.memory.buffer.byteLength;
  }

  /** The size of the block that holds `bytes`. */
  static blockSize(bytes: number): number {
    return Math.max(SMALLEST, 2 ** Math.ceil(Math.log2(Math.max(1, bytes))));
  }

  /** A block of at least `bytes` (its contents are whatever was there); returns its offset. */
  alloc(bytes: number): number {
    const size = KernelArena.blockSize(bytes);
    const reused = this.freeBlocks.get(size)?.pop();
    if (reused !== undefined) return reused;
    const at = this.top;
    this.top += size;
    ensureMemory(this.kernels, this.top);
    return at;
  }

  /** Returns a block from alloc(bytes) for reuse. */
  free(at: number, bytes: number): void {
    const size = KernelArena.blockSize(bytes);
    const list = this.freeBlocks.get(size);
    if (list) list.push(at);
    else this.freeBlocks.set(size, [at]);
  }
}
