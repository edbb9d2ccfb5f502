// memd-mcp against messages it cannot take: the real binary under the SDK's own client, and a raw
// writer on its stdin. No daemon runs: the tools answer that memd is not running, which is enough
// to show that a message was read and served.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_BIN, makeHome } from "../helpers/daemon.js";
import { until } from "../helpers/until.js";

/** Past the SDK's own 10 MiB buffer, under memd-mcp's 32 MiB limit. */
const LARGE = 11 * 1024 * 1024;
/** Past memd-mcp's limit. */
const HUGE = 60 * 1024 * 1024;

let home: string;
beforeAll(() => {
  home = makeHome();
});
afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

describe("memd-mcp under the SDK's client", () => {
  let client: Client;
  let stderr = "";

  beforeAll(async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_BIN], cwd: home, env: { ...getDefaultEnvironment(), MEMD_HOME: home }, stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: "memd-mcp-oversized", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("serves an 11 MB tool call, which the SDK's own transport stopped reading at", async () => {
    const result = (await client.callTool({ name: "memory_save", arguments: { content: "a".repeat(LARGE) } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "memd is not running: call memory_start, then retry" }]);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("refuses a 60 MB tool call with a JSON-RPC error for that call, and keeps serving", async () => {
    const refused = await client.callTool({ name: "memory_save", arguments: { content: "a".repeat(HUGE) } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(ErrorCode.InvalidRequest);
    expect((refused as McpError).message).toMatch(/the message is \d+ bytes, over memd-mcp's limit of 33554432/);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("memory_save");
    expect(stderr).toMatch(/memd-mcp: refused a message: the message is \d+ bytes/);
  });
});

interface Answer {
  id: number | string | null;
  result?: { tools?: unknown[] };
  error?: { code: number; message: string };
}

describe("memd-mcp under a raw writer", () => {
  let child: ChildProcessWithoutNullStreams;
  const answers: Answer[] = [];
  let exited: Promise<number | null>;

  beforeAll(() => {
    child = spawn(process.execPath, [MCP_BIN], { cwd: home, env: { ...getDefaultEnvironment(), MEMD_HOME: home } });
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) answers.push(JSON.parse(line) as Answer);
    });
    // A memd-mcp that died shows as a failed expectation below, not as an unhandled EPIPE.
    child.stdin.on("error", () => {});
    exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  });
  afterAll(() => {
    if (child.exitCode === null) child.kill();
  });

  const send = (line: string | Buffer) => child.stdin.write(line);
  const answerTo = (id: number | string | null) => until(() => answers.find((a) => a.id === id), (a) => a !== undefined, 30_000);

  it("answers a 60 MB line, written in pieces, with an error naming its id, and the next request as usual", async () => {
    send(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } })}\n`);
    send(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    expect((await answerTo(1))?.error).toBeUndefined();
    send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"memory_save","arguments":{"content":"`);
    const piece = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 60; i += 1) send(piece);
    send(`"}}}\n${JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list" })}\n`);
    expect((await answerTo(7))?.error).toMatchObject({ code: ErrorCode.InvalidRequest, message: expect.stringMatching(/^the message is 629\d{5} bytes, over memd-mcp's limit/) });
    expect((await answerTo(8))?.result?.tools?.length).toBeGreaterThan(0);
  });

  it("answers a line that is not JSON, or not JSON-RPC, with an error instead of silence", async () => {
    send('{"jsonrpc":"2.0","id":9,"method":"tools/list"\n');
    expect((await answerTo(9))?.error?.code).toBe(ErrorCode.ParseError);
    send(`${JSON.stringify({ id: 10, hello: "there" })}\n`);
    expect((await answerTo(10))?.error?.code).toBe(ErrorCode.InvalidRequest);
    send("x".repeat(40 * 1024 * 1024));
    send(`\n${JSON.stringify({ jsonrpc: "2.0", id: 11, method: "tools/list" })}\n`);
    expect((await answerTo(null))?.error?.code).toBe(ErrorCode.InvalidRequest);
    expect((await answerTo(11))?.result?.tools?.length).toBeGreaterThan(0);
  });

  it("is still running after all of it, and exits cleanly when stdin closes", async () => {
    expect(child.exitCode).toBeNull();
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
