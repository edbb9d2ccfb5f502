import { describe, expect, it } from "vitest";
import { SessionIndex } from "./session-index.js";

const all = () => true;

describe("SessionIndex", () => {
  it("orders a session's rows by creation time, then by seq, whatever order they arrive in", () => {
    const index = new SessionIndex();
    index.set(3, "chat", "s1", 100);
    index.set(1, "chat", "s1", 200);
    index.set(2, "chat", "s1", 100);
    expect(index.neighbours(2, 1, all)).toEqual([3]);
    expect(index.neighbours(3, 1, all)).toEqual([2, 1]);
    expect(index.neighbours(1, 2, all)).toEqual([3, 2]);
  });

  it("gives the ones before first, nearest first, and skips rows the caller turns down", () => {
    const index = new SessionIndex();
    for (let seq = 1; seq <= 6; seq += 1) index.set(seq, "chat", "s1", seq);
    expect(index.neighbours(4, 2, all)).toEqual([3, 2, 5, 6]);
    expect(index.neighbours(4, 1, (seq) => seq !== 3 && seq !== 5)).toEqual([2, 6]);
  });

  it("keeps sessions of different projects apart, and rows without a session out", () => {
    const index = new SessionIndex();
    index.set(1, "api", "s1", 1);
    index.set(2, "web", "s1", 2);
    index.set(3, "api", "", 3);
    expect(index.neighbours(1, 1, all)).toEqual([]);
    expect(index.neighbours(3, 1, all)).toEqual([]);
  });

  it("moves a row whose session or time changed, and forgets a deleted one", () => {
    const index = new SessionIndex();
    index.set(1, "chat", "s1", 1);
    index.set(2, "chat", "s1", 2);
    index.set(3, "chat", "s1", 3);
    index.set(1, "chat", "s1", 4);
    expect(index.neighbours(3, 1, all)).toEqual([2, 1]);
    index.set(2, "chat", "s2", 2);
    expect(index.neighbours(3, 1, all)).toEqual([1]);
    index.delete(1);
    expect(index.neighbours(3, 1, all)).toEqual([]);
  });
});
