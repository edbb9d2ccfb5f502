import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_BIN, makeHome, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";


const ALL_TOOLS = [
  "memory_archive", "memory_checkpoint", "memory_clean", "memory_compress", "memory_consolidate", "memory_contradictions", "memory_get",
  "memory_health", "memory_history", "memory_promote", "memory_reject", "memory_save", "memory_search", "memory_settle", "memory_staged",
  "memory_start", "memory_stats", "memory_supersede", "memory_sync", "memory_update",
];

interface McpSession {
  client: Client;
  stderr(): string;
}

/** The real memd-mcp binary under the SDK's own client, working in `cwd`. */
async function connectMcp(home: string, cwd: string): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_BIN],
    cwd,
    // A daemon started by memory_start inherits this environment: keep it keyword-only.
    env: { ...getDefaultEnvironment(), MEMD_HOME: home, MEMD_EMBEDDER: "none" },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "memd-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

/** Calls a tool that must succeed and returns its text. */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await call(client, name, args);
  const text = textOf(result);
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return text;
}

/** The first ULID in a tool's text. */
function idIn(text: string): string {
  const id = /\b[0-9A-HJKMNP-TV-Z]{26}\b/.exec(text)?.[0];
  if (!id) throw new Error(`no memory id in: ${text}`);
  return id;
}

function workDir(home: string, name: string): string {
  const dir = path.join(home, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

async function stopPidFile(home: string): Promise<void> {
  const pidFile = path.join(home, "memd.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("memd-mcp with the daemon stopped", () => {
  let home: string;
  let session: McpSession;

  beforeAll(async () => {
    home = makeHome();
    session = await connectMcp(home, workDir(home, "acme-api"));
  });
  afterAll(async () => {
    await session?.client.close();
    await stopPidFile(home);
    fs.rmSync(home, { recursive: true, force: true });
  });

  it("answers initialize and lists every tool without a daemon", async () => {
    expect(session.client.getServerVersion()?.name).toBe("memd");
    expect(session.client.getInstructions()).toContain("memory_search");
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    const save = tools.find((t) => t.name === "memory_save");
    expect(save?.description).toMatch(/preference/);
    expect(save?.inputSchema.required).toEqual(["content"]);
    const kind = (save?.inputSchema.properties as Record<string, { enum?: string[] }>).kind;
    expect(kind?.enum).toContain("decision");
    expect(fs.existsSync(path.join(home, "memd.sock"))).toBe(false);
  });

  it("tells the agent to call memory_start when a tool needs the daemon", async () => {
    const result = await call(session.client, "memory_search", { query: "pnpm" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("memd is not running: call memory_start, then retry");
    expect(session.stderr()).not.toMatch(/at .*\.js:\d+/);
  });

  it("writes nothing but JSON-RPC to stdout and exits when stdin closes", async () => {
    const child = spawn(process.execPath, [MCP_BIN], {
      cwd: workDir(home, "raw"),
      env: { ...getDefaultEnvironment(), MEMD_HOME: home },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "memory_sync", arguments: {} } });
    const deadline = Date.now() + 10_000;
    while (stdout.split("\n").filter((l) => l !== "").length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.stdin.end();
    expect(await exited).toBe(0);
    const messages = stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result: { isError?: boolean } });
    expect(messages.map((m) => [m.jsonrpc, m.id])).toEqual([["2.0", 1], ["2.0", 2], ["2.0", 3]]);
    expect(messages[2]?.result.isError).toBe(true);
  });

  it("starts the daemon with memory_start, after which health answers", async () => {
    expect(await ok(session.client, "memory_start")).toMatch(/^memd started \(pid \d+\)/);
    const health = await ok(session.client, "memory_health");
    expect(health).toMatch(/ ok, pid \d+/);
    expect(health).toContain(`home ${home}`);
    expect(await ok(session.client, "memory_start")).toMatch(/already running/);
    expect(fs.existsSync(path.join(home, "logs", "memd.stderr.log"))).toBe(true);
  });
});

describe("memd-mcp against a running daemon", () => {
  let daemon: TestDaemon;
  let session: McpSession;
  let client: Client;

  beforeAll(async () => {
    daemon = await spawnDaemon();
    session = await connectMcp(daemon.home, workDir(daemon.home, "acme-api"));
    client = session.client;
  });
  afterAll(async () => {
    await session?.client.close();
    await daemon?.stop();
    if (daemon) fs.rmSync(daemon.home, { recursive: true, force: true });
  });

  it("says what a save contradicts and how to settle it, then settles it when told which memory holds", async () => {
    const old = idIn(await ok(client, "memory_save", { content: "Feature flags are served by LaunchDarkly.", kind: "decision", project: "flags" }));
    const saved = await ok(client, "memory_save", { content: "We dropped LaunchDarkly; flags now come from a self-hosted Unleash.", kind: "decision", project: "flags" });
    const lines = saved.split("\n");
    expect(lines[1]).toBe("This may contradict 1 active memory (memd queued the pair and changed nothing):");
    const contradiction = /^- contradiction (\d+) \(feature flags: Unleash here, LaunchDarkly there\): (\S+) \[decision, flags\]/.exec(lines[2] ?? "");
    expect(contradiction?.[2]).toBe(old);
    expect(lines[3]).toContain('call memory_settle with the contradiction id and keep "newer": the old one is superseded');
    expect(await ok(client, "memory_contradictions", { project: "flags" })).toContain(`1 open:\n${idIn(saved)}`);

    const settled = await ok(client, "memory_settle", { id: Number(contradiction?.[1]), keep: "newer" });
    expect(settled).toBe(`contradiction ${contradiction?.[1]} settled: superseded ${old} [decision, flags, superseded] Feature flags are served by LaunchDarkly.`);
    expect(await ok(client, "memory_contradictions", { project: "flags" })).toBe("no open contradictions");
  });

  it("says what an update now contradicts, as a save does", async () => {
    const clerk = idIn(await ok(client, "memory_save", { content: "Auth is Clerk, not custom JWT.", kind: "decision", project: "auth" }));
    const id = idIn(await ok(client, "memory_save", { content: "Errors go to Sentry.", kind: "decision", project: "auth" }));
    const lines = (await ok(client, "memory_update", { id, content: "Auth moved to Auth0 last sprint; Clerk's pricing didn't work for us." })).split("\n");
    expect(lines[0]).toMatch(new RegExp(`^updated ${id} \\[decision, auth\\]`));
    expect(lines[1]).toBe("This may contradict 1 active memory (memd queued the pair and changed nothing):");
    expect(lines[2]).toMatch(new RegExp(`^- contradiction \\d+ \\(auth provider: Auth0 here, Clerk there\\): ${clerk} \\[decision, auth\\]`));
    expect(await ok(client, "memory_update", { id, tags: ["auth"] })).toMatch(/^updated \S+ \[decision, auth\] [^\n]*$/);
  });

  it("syncs a session into the project derived from the working directory", async () => {
    const text = await ok(client, "memory_sync", { session_id: "s-1" });
    expect(text).toMatch(/^memd \S+ ok/);
    expect(text).toContain("project acme-api: 0 active memories");
  });

  it("saves a decision and finds it by search, summaries first, then in full", async () => {
    const saved = await ok(client, "memory_save", {
      content: "We chose Fastify over Express for the HTTP layer because of its schema validation",
      kind: "decision",
      concepts: ["fastify", "express"],
      files: ["src/server.ts"],
      importance: 4,
    });
    expect(saved).toMatch(/^saved [0-9A-Z]{26} \[decision, acme-api\] We chose Fastify/);
    const id = idIn(saved);

    const summaries = await ok(client, "memory_search", { query: "fastify", limit: 3 });
    expect(summaries).toContain(`${id} [decision, acme-api]`);
    expect(summaries).toContain("depth 1");

    const full = await ok(client, "memory_search", { query: "fastify", depth: 2, ids: [id] });
    expect(full).toContain("files: src/server.ts");
    expect(full).toContain("concepts: fastify, express");

    const associated = await ok(client, "memory_search", { query: "fastify HTTP", depth: 3, max_tokens: 2000 });
    expect(associated).toContain(id);
    expect(associated).toContain("depth 3");
  });

  it("says so when nothing matches, and when the query is missing", async () => {
    expect(await ok(client, "memory_search", { query: "kubernetes helm chart" })).toMatch(/^no memories match \(project acme-api\)/);
    const missing = await call(client, "memory_search", {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/give a query/);
  });

  it("saves a user-wide preference into global and sees a repeat as already known", async () => {
    const args = { content: "The user wants pnpm, never npm", kind: "preference", project: "global" };
    const first = await ok(client, "memory_save", args);
    expect(first).toMatch(/\[preference, global\]/);
    const again = await ok(client, "memory_save", args);
    expect(again).toMatch(/^already known: reinforced/);
    expect(idIn(again)).toBe(idIn(first));
  });

  it("checkpoints a finished task as an episode", async () => {
    const text = await ok(client, "memory_checkpoint", {
      summary: "Fixed the token refresh race in the auth client",
      problem: "Two requests refreshed the token at once and one got 401",
      solution: "Share one in-flight refresh promise",
      files: ["src/auth/tokens.ts"],
      concepts: ["oauth", "refresh-token"],
    });
    expect(text).toMatch(/^checkpoint saved: [0-9A-Z]{26} \[episode, acme-api\] Fixed the token refresh race/);
    const got = await ok(client, "memory_get", { id: idIn(text) });
    expect(got).toContain("solution: Share one in-flight refresh promise");
    // The MCP client's name is recorded as the agent that wrote it.
    expect(got).toContain("agent: memd-mcp-test");
  });

  it("updates only the given fields, gets the memory as text and JSON, and refuses an empty update", async () => {
    const id = idIn(await ok(client, "memory_save", { content: "Postgres listens on port 5432 locally", kind: "fact" }));
    const updated = await ok(client, "memory_update", { id, content: "Postgres listens on port 5433 locally", concepts: ["postgres"] });
    expect(updated).toContain(`updated ${id} [fact, acme-api] Postgres listens on port 5433`);
    const text = await ok(client, "memory_get", { id });
    expect(text).toContain("concepts: postgres");
    const json = JSON.parse(await ok(client, "memory_get", { id, format: "json" })) as { content: string; kind: string };
    expect(json).toMatchObject({ content: "Postgres listens on port 5433 locally", kind: "MEMORY_KIND_FACT" });
    const empty = await call(client, "memory_update", { id });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toMatch(/nothing to change/);
  });

  it("supersedes a claim and shows the chain in the history", async () => {
    const oldId = idIn(await ok(client, "memory_save", { content: "CI runs on Jenkins", kind: "fact" }));
    const text = await ok(client, "memory_supersede", { id: oldId, content: "CI runs on GitHub Actions", reason: "migrated in May" });
    const newId = idIn(text);
    expect(newId).not.toBe(oldId);
    expect(text).toContain(`superseded ${oldId}`);
    expect(await ok(client, "memory_get", { id: oldId })).toContain(`superseded by: ${newId}`);
    const history = await ok(client, "memory_history", { id: newId });
    expect(history.indexOf(oldId)).toBeLessThan(history.indexOf(newId));
    expect(history).toMatch(/superseded/);
  });

  it("archives a memory so that search no longer finds it", async () => {
    const id = idIn(await ok(client, "memory_save", { content: "The staging server is called zebra-7", kind: "fact" }));
    expect(await ok(client, "memory_search", { query: "zebra-7" })).toContain(id);
    expect(await ok(client, "memory_archive", { id, reason: "server decommissioned" })).toContain(`archived ${id} [fact, acme-api, archived]`);
    expect(await ok(client, "memory_search", { query: "zebra-7" })).not.toContain(id);
    expect(await ok(client, "memory_get", { id })).toContain("archived because: server decommissioned");
  });

  it("stages a distilled guess until it is promoted, and rejects another", async () => {
    const saved = await ok(client, "memory_save", { content: "The user seems to prefer tabs in Makefiles", kind: "preference", provenance: "distilled" });
    expect(saved).toMatch(/staged: unconfirmed/);
    const id = idIn(saved);
    const wrong = idIn(await ok(client, "memory_save", { content: "The user seems to dislike TypeScript enums", provenance: "distilled" }));
    expect(await ok(client, "memory_search", { query: "tabs Makefiles" })).not.toContain(id);

    const staged = await ok(client, "memory_staged", { project: "acme-api" });
    expect(staged).toContain(`${id} [preference, acme-api, staged]`);
    expect(staged).toContain(wrong);

    expect(await ok(client, "memory_promote", { id })).toContain(`promoted ${id} [preference, acme-api]`);
    expect(await ok(client, "memory_reject", { id: wrong, reason: "the user said no" })).toContain(`rejected ${wrong}`);
    expect(await ok(client, "memory_staged", { project: "acme-api" })).toBe("nothing is staged");
    expect(await ok(client, "memory_search", { query: "tabs Makefiles" })).toContain(id);
  });

  it("reports stats, health and maintenance dry runs", async () => {
    const stats = await ok(client, "memory_stats", {});
    expect(stats).toMatch(/^total \d+ memories/);
    expect(stats).toMatch(/active by project: .*acme-api \d+/);
    expect(await ok(client, "memory_stats", { project: "acme-api" })).toMatch(/in acme-api/);
    expect(await ok(client, "memory_health")).toContain("embedder: none");
    expect(await ok(client, "memory_clean", { dry_run: true })).toMatch(/^would archive/);
    expect(await ok(client, "memory_consolidate", { dry_run: true })).toMatch(/^would merge/);
    expect(await ok(client, "memory_clean", {})).toMatch(/^archived/);
    expect(await ok(client, "memory_consolidate", {})).toMatch(/^merged/);
  });

  it("passes a daemon error on as a tool error the agent can read", async () => {
    const result = await call(client, "memory_get", { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("no memory has id 01ARZ3NDEKTSV4RRFFQ69G5FAV");
    const supersede = await call(client, "memory_supersede", { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV", content: "x" });
    expect(supersede.isError).toBe(true);
    expect(session.stderr()).toBe("");
  });

  it("tells the agent to call memory_start when the daemon stops mid-session", async () => {
    await daemon.stop();
    const result = await call(client, "memory_stats");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/memory_start/);
  });
});

describe("memd-mcp against a daemon with an embedder", () => {
  let daemon: TestDaemon;
  let session: McpSession;

  beforeAll(async () => {
    daemon = await spawnDaemon({ env: { MEMD_EMBEDDER: "local" } });
    session = await connectMcp(daemon.home, process.cwd());
  });

  afterAll(async () => {
    await session.client.close();
    await daemon.stop();
  });

  // The embedder's state is named from the services' descriptors, which memd-mcp loads with its
  // transport on the first tool call rather than at start-up.
  it("names the embedder and its state in health", async () => {
    expect(await ok(session.client, "memory_health")).toMatch(/^embedder: local \S+, (idle|ready|failing), \d+ queued/m);
  });
});
