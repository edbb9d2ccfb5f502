import { describe, expect, it } from "vitest";
import {
  codeLength,
  encodeVector,
  type Quantizer,
  quantizerFromBytes,
  quantizerToBytes,
  queryWeights,
  trainQuantizer,
  untrainedQuantizer,
} from "./sign-quantizer.js";
import { VectorDimensionError } from "./vector-index.js";

function quantizer(fields: Partial<Quantizer> & { dimensions: number }): Quantizer {
  return { ...untrainedQuantizer(fields.dimensions), ...fields };
}

function factorOf(code: Uint8Array): number {
  return new DataView(code.buffer).getFloat32(code.length - 4, true);
}

describe("sign quantizer", () => {
  it("sets bit d of a code when dimension d is at or above the mean", () => {
    const q = quantizer({ dimensions: 10, mean: Float32Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0.5, 0.5]) });
    const code = encodeVector(q, Float32Array.from([1, -1, 0, -2, 3, -3, 0.1, -0.1, 0.5, 0.4]));
    expect(code.length).toBe(codeLength(10));
    expect(code[0]).toBe(0b0101_0101);
    expect(code[1]).toBe(0b01);
  });

  it("puts the sign of dimension order[b] in bit b", () => {
    const q = quantizer({ dimensions: 3, order: Uint32Array.from([2, 0, 1]) });
    expect(encodeVector(q, Float32Array.from([1, -1, -1]))[0]).toBe(0b010);
    expect(encodeVector(q, Float32Array.from([-1, -1, 1]))[0]).toBe(0b001);
  });

  it("stores |x - mean|^2 / sum(scale * |x - mean|) after the sign bits", () => {
    const q = quantizer({ dimensions: 3, mean: Float32Array.from([1, 0, 0]), scale: Float32Array.from([1, 0.5, 2]) });
    const code = encodeVector(q, Float32Array.from([2, -2, 0]));
    expect(factorOf(code)).toBeCloseTo((1 + 4) / (1 * 1 + 0.5 * 2), 6);
  });

  it("learns the mean and spread of each dimension and puts barely varying dimensions last", () => {
    const q = trainQuantizer([Float32Array.from([1, 0, 5, 2]), Float32Array.from([0, 1, 5, 4]), Float32Array.from([0.5, 0.5, 5, 3])]);
    expect(Array.from(q.mean)).toEqual([0.5, 0.5, 5, 3]);
    expect(q.scale[0]).toBeCloseTo(Math.sqrt(1 / 6), 6);
    expect(q.scale[2]).toBe(0);
    expect(q.scale[3]).toBeCloseTo(Math.sqrt(2 / 3), 6);
    expect(Array.from(q.order)).toEqual([0, 1, 3, 2]);
  });

  it("keeps unit scales when the sample has no spread", () => {
    expect(Array.from(trainQuantizer([Float32Array.from([0.6, 0.8])]).scale)).toEqual([1, 1]);
  });

  it("weighs each bit by the query's value and the scale of its dimension", () => {
    const q = quantizer({ dimensions: 3, scale: Float32Array.from([1, 2, 3]), order: Uint32Array.from([1, 2, 0]) });
    expect(Array.from(queryWeights(q, Float32Array.from([0.5, -1, 2])))).toEqual([-2, 6, 0.5]);
  });

  it("reads back the quantizer it wrote as bytes", () => {
    const trained = trainQuantizer([Float32Array.from([0.25, -1.5, 3]), Float32Array.from([0.5, 1.5, 3])]);
    const restored = quantizerFromBytes(quantizerToBytes(trained));
    expect(restored).toEqual(trained);
  });

  it("rejects bytes that are not a quantizer", () => {
    expect(() => quantizerFromBytes(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]))).toThrow(RangeError);
    const bytes = quantizerToBytes(untrainedQuantizer(4));
    expect(() => quantizerFromBytes(bytes.subarray(0, 20))).toThrow(/4 dimensions/);
    const badOrder = bytes.slice();
    new DataView(badOrder.buffer).setUint32(8 + 8 * 4, 3, true);
    expect(() => quantizerFromBytes(badOrder)).toThrow(/permutation/);
  });

  it("refuses vectors of another dimension with a VectorDimensionError", () => {
    expect(() => encodeVector(untrainedQuantizer(4), new Float32Array(5))).toThrow(VectorDimensionError);
    expect(() => trainQuantizer([new Float32Array(2), new Float32Array(3)])).toThrow(/3 dimensions/);
  });

  it("refuses a vector with non-finite values", () => {
    expect(() => encodeVector(untrainedQuantizer(2), Float32Array.from([Number.NaN, 1]))).toThrow(RangeError);
  });
});
