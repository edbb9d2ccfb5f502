import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MCP_BIN } from "../helpers/daemon.js";
import { until } from "../helpers/until.js";

/** memd-mcp's entry point and its bundle, copied where each test may change the code cache beside them. */
function copyOfMcp(): { dir: string; entry: string; cache: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-mcp-cache-"));
  for (const name of ["memd-mcp.mjs", "memd-mcp.cjs"]) fs.copyFileSync(path.join(path.dirname(MCP_BIN), name), path.join(dir, name));
  return { dir, entry: path.join(dir, "memd-mcp.mjs"), cache: path.join(dir, "memd-mcp.cjs.cache") };
}

/**
 * One session: initialize, then stdin held open `holdMs` before it closes, or until `held` holds
 * (at most 20 s); resolves with the initialize answer.
 */
async function session(entry: string, home: string, holdMs: number, held?: () => boolean): Promise<{ serverName: string; stderr: string }> {
  const child = spawn(process.execPath, [entry, "--home", home], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`);
  if (held === undefined) await new Promise((resolve) => setTimeout(resolve, holdMs));
  else await until(held, (done) => done);
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  const answer = JSON.parse(stdout.split("\n")[0] ?? "") as { result?: { serverInfo?: { name?: string } } };
  return { serverName: answer.result?.serverInfo?.name ?? "", stderr };
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("memd-mcp's code cache", () => {
  it("is written by the build beside the bundle, and this Node accepts it", async () => {
    const mcp = copyOfMcp();
    made.push(mcp.dir);
    const built = fs.readFileSync(path.join(path.dirname(MCP_BIN), "memd-mcp.cjs.cache"));
    fs.writeFileSync(mcp.cache, built);
    expect((await session(mcp.entry, mcp.dir, 1500)).serverName).toBe("memd");
    // A rejected cache would have been replaced after the session's first second.
    expect(fs.readFileSync(mcp.cache).equals(built)).toBe(true);
  });

  it("is written after the first session that ran without one", async () => {
    const mcp = copyOfMcp();
    made.push(mcp.dir);
    const answer = await session(mcp.entry, mcp.dir, 1500, () => fs.existsSync(mcp.cache));
    expect(answer.serverName).toBe("memd");
    expect(fs.statSync(mcp.cache).size).toBeGreaterThan(100_000);
  });

  it("answers from a cache V8 rejects, and replaces that cache with one it accepts", async () => {
    const mcp = copyOfMcp();
    made.push(mcp.dir);
    fs.writeFileSync(mcp.cache, Buffer.alloc(4096, 7));
    const answer = await session(mcp.entry, mcp.dir, 1500, () => !fs.readFileSync(mcp.cache).equals(Buffer.alloc(4096, 7)));
    expect(answer).toEqual({ serverName: "memd", stderr: "" });
    const replaced = fs.readFileSync(mcp.cache);
    expect(replaced.equals(Buffer.alloc(4096, 7))).toBe(false);
    // The new cache is accepted: the next session leaves it as it is.
    await session(mcp.entry, mcp.dir, 1500);
    expect(fs.readFileSync(mcp.cache).equals(replaced)).toBe(true);
  });

  it("answers when the cache cannot be read or replaced, and leaves no temporary file", async () => {
    const mcp = copyOfMcp();
    made.push(mcp.dir);
    // A directory in the cache's place: reading it fails, and so does renaming a file over it
    // (a read-only install directory fails the same way, but root may write anywhere).
    fs.mkdirSync(path.join(mcp.cache, "keep"), { recursive: true });
    expect(await session(mcp.entry, mcp.dir, 1500)).toEqual({ serverName: "memd", stderr: "" });
    expect(fs.readdirSync(mcp.dir).filter((name) => name.startsWith("memd-mcp.cjs.cache")).sort()).toEqual(["memd-mcp.cjs.cache"]);
    expect(fs.statSync(mcp.cache).isDirectory()).toBe(true);
  });
});
