/** A copy of the array in a new one of `length` elements, the rest zero: how the in-memory indexes grow. */
export function resized<T extends Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array>(array: T, length: number): T {
  const copy = new (array.constructor as new (length: number) => T)(length);
  copy.set(array);
  return copy;
}
