/**
 * The longest JSON-RPC message memd-mcp reads: the daemon takes no request larger than 32 MiB
 * (daemon.ts, READ_MAX_BYTES), so nothing longer could be served anyway, and holding one such line
 * is all the memory an agent can make memd-mcp spend.
 */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** How much of an oversized line's start and end is kept, to find the request's id in. */
const EDGE_BYTES = 1024;

/** One line of stdin: a message to parse, or one too long to read, of which only its edges were kept. */
export type MessageLine = { kind: "message"; text: string } | { kind: "oversized"; bytes: number; head: string; tail: string };

/**
 * Splits stdin into newline-delimited messages, as MCP's stdio transport frames them, holding at
 * most `maxBytes` of a line. A line that grows past that is dropped as it arrives, up to its
 * newline, so that the message after it is read whole. (The SDK's own ReadBuffer throws on such a
 * line and its transport then stops reading stdin: memd-mcp hung on a 10 MB message and exited
 * on a 60 MB one.)
 */
export class MessageLines {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Set while an oversized line is being dropped. */
  private dropping: { bytes: number; head: Buffer; tail: Buffer } | null = null;

  constructor(private readonly maxBytes = MAX_MESSAGE_BYTES) {}

  /** The lines `chunk` completes, in order. */
  push(chunk: Buffer): MessageLine[] {
    const lines: MessageLine[] = [];
    for (let start = 0; ; ) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return lines;
      lines.push(this.finish());
      start = newline + 1;
    }
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.dropping) {
      this.dropping.bytes += piece.length;
      this.dropping.tail = lastBytes(Buffer.concat([this.dropping.tail, lastBytes(piece)]));
    } else if (this.length + piece.length > this.maxBytes) {
      const held = Buffer.concat([...this.chunks, piece.subarray(0, EDGE_BYTES)]);
      this.dropping = { bytes: this.length + piece.length, head: held.subarray(0, EDGE_BYTES), tail: lastBytes(Buffer.concat([lastBytes(this.chunks.at(-1) ?? Buffer.alloc(0)), lastBytes(piece)])) };
      this.chunks = [];
      this.length = 0;
    } else {
      this.chunks.push(piece);
      this.length += piece.length;
    }
  }

  private finish(): MessageLine {
    const dropped = this.dropping;
    const text = Buffer.concat(this.chunks).toString("utf8").replace(/\r$/, "");
    this.chunks = [];
    this.length = 0;
    this.dropping = null;
    if (dropped) return { kind: "oversized", bytes: dropped.bytes, head: dropped.head.toString("latin1"), tail: dropped.tail.toString("latin1") };
    return { kind: "message", text };
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : buffer.subarray(buffer.length - EDGE_BYTES);
}

/** A JSON-RPC id: a number or a string, as JSON text. */
const ID = String.raw`(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")`;
/** The id among the first members of the object (the order Python's SDK and most clients write). */
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,\s*)*"id"\s*:\s*${ID}`);
/** The id as the object's last member, or before "jsonrpc" (the order the TypeScript SDK writes). */
const ID_AT_END = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`);

/**
 * The id of a request memd-mcp cannot read whole, from the start and end of its line, so that the
 * error goes to the call that is waiting for it; null when neither edge names one at the top level.
 * Both patterns are anchored at the object's own braces, where a member is a top-level one.
 */
export function requestIdOf(head: string, tail: string): number | string | null {
  const found = ID_AT_START.exec(head)?.[1] ?? ID_AT_END.exec(tail)?.[1];
  if (found === undefined) return null;
  try {
    return JSON.parse(found) as number | string;
  } catch {
    return null;
  }
}
