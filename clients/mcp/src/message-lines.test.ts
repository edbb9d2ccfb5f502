import { describe, expect, it } from "vitest";
import { MessageLines, requestIdOf } from "./message-lines.js";

const texts = (lines: ReturnType<MessageLines["push"]>) => lines.map((l) => (l.kind === "message" ? l.text : `oversized ${l.bytes}`));

describe("MessageLines", () => {
  it("splits messages on newlines across chunks, and drops a carriage return before one", () => {
    const lines = new MessageLines(100);
    expect(texts(lines.push(Buffer.from('{"a":1}\n{"b"')))).toEqual(['{"a":1}']);
    expect(texts(lines.push(Buffer.from(":2}\r\n\n")))).toEqual(['{"b":2}', ""]);
  });

  it("drops a line past the limit as it arrives, and reads the next one whole", () => {
    const lines = new MessageLines(100);
    expect(texts(lines.push(Buffer.from(`{"id":7,"x":"${"a".repeat(60)}`)))).toEqual([]);
    expect(texts(lines.push(Buffer.from("b".repeat(200))))).toEqual([]);
    const [dropped, next] = lines.push(Buffer.from('"}\n{"id":8}\n'));
    expect(dropped).toMatchObject({ kind: "oversized", bytes: 13 + 60 + 200 + 2 });
    expect(dropped?.kind === "oversized" && dropped.head.startsWith('{"id":7,')).toBe(true);
    expect(dropped?.kind === "oversized" && dropped.tail.endsWith('bb"}')).toBe(true);
    expect(next).toEqual({ kind: "message", text: '{"id":8}' });
  });

  it("keeps at most the limit of a line that never ends", () => {
    const lines = new MessageLines(1024);
    for (let i = 0; i < 1000; i += 1) lines.push(Buffer.alloc(4096, 0x61));
    expect(lines.push(Buffer.from("\n"))).toEqual([expect.objectContaining({ kind: "oversized", bytes: 4096 * 1000 })]);
  });
});

describe("requestIdOf", () => {
  it("finds the id at the start, as Python's SDK writes it, and at the end, as the TypeScript SDK does", () => {
    expect(requestIdOf('{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"x":"', "")).toBe(12);
    expect(requestIdOf('{"method":"tools/call","params":{"x":"', 'aaaa"}},"jsonrpc":"2.0","id":"req-3"}')).toBe("req-3");
    expect(requestIdOf("", 'aaaa"}},"id":5,"jsonrpc":"2.0"}\r')).toBe(5);
  });

  it("names no id that is not a member of the message itself", () => {
    expect(requestIdOf('{"method":"tools/call","params":{"id":4,"x":"', 'aaa"}}')).toBeNull();
    expect(requestIdOf("", 'aaa","id":4}}')).toBeNull();
    expect(requestIdOf("", 'a\\"id":4}')).toBeNull();
    expect(requestIdOf("garbage", "garbage")).toBeNull();
  });
});
