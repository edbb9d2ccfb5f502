import { VECTOR_KERNELS_WASM } from "./vector-kernels-wasm.js";

/** The part of the WebAssembly API used here (the Node typings in use do not declare it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: WebAssemblyApi };

export const PAGE_BYTES = 65_536;

/** An instance of vector-kernels.wat: its memory and the loops that run over it (see the .wat for each). */
export interface VectorKernels {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  dots(query: number, stride: number, slab: number, slots: number, count: number, out: number): void;
  hamming(codes: number, count: number, words: number, query: number, out: number, histogram: number): void;
  gather(distances: number, count: number, after: number, upTo: number, out: number): number;
}

/** Compiled once per process. */
let compiled: object | undefined;

/** A fresh instance, with a memory of its own. */
export function instantiateKernels(): VectorKernels {
  compiled ??= new wasm.Module(VECTOR_KERNELS_WASM);
  return new wasm.Instance(compiled).exports as VectorKernels;
}

/** Grows the instance's memory to at least `bytes`; views of the old buffer are invalid afterwards. */
export function ensureMemory(kernels: VectorKernels, bytes: number): void {
  const { memory } = kernels;
  if (bytes > memory.buffer.byteLength) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE_BYTES));
}
