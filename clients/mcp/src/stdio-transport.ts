import process from "node:process";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { MAX_MESSAGE_BYTES, type MessageLine, MessageLines, requestIdOf } from "./message-lines.js";

/**
 * MCP over stdin and stdout, as the SDK's StdioServerTransport, except that a message memd-mcp
 * cannot take (too long, not JSON, not JSON-RPC) is answered with a JSON-RPC error and the next
 * one is read: the SDK's transport stops reading stdin after a line past its 10 MiB buffer, which
 * left memd-mcp deaf (a 10 MB line) or gone without a word (60 MB), and answers nothing to a line
 * it cannot parse, which leaves the caller waiting.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly lines: MessageLines;
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {
    this.lines = new MessageLines(maxBytes);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("BoundedStdioTransport already started");
    this.started = true;
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStdinError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStdinError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    for (const line of this.lines.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)) this.receive(line);
  };

  private readonly onStdinError = (error: Error): void => {
    this.onerror?.(error);
  };

  private receive(line: MessageLine): void {
    if (line.kind === "oversized") {
      this.refuse(requestIdOf(line.head, line.tail), ErrorCode.InvalidRequest, `the message is ${line.bytes} bytes, over memd-mcp's limit of ${this.maxBytes}; send less (memd keeps a memory's content to 64 KiB unless MEMD_MAX_CONTENT_BYTES says otherwise)`);
      return;
    }
    if (line.text.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(line.text);
    } catch (error) {
      this.refuse(requestIdOf(line.text.slice(0, 1024), line.text.slice(-1024)), ErrorCode.ParseError, `the message is not JSON: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = (json as { id?: unknown } | null)?.id;
      this.refuse(typeof id === "number" || typeof id === "string" ? id : null, ErrorCode.InvalidRequest, "the message is not a JSON-RPC 2.0 request, notification or response");
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** Answers a message that cannot be served, and tells onerror why (memd-mcp writes that to stderr). */
  private refuse(id: number | string | null, code: ErrorCode, message: string): void {
    this.onerror?.(new Error(`refused a message: ${message}`));
    // JSON-RPC answers a request whose id cannot be read with id null; the SDK's types have no such response.
    void this.send({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
