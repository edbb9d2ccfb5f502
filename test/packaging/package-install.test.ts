import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeEncoderModel } from "../../bench/onnx-encoder-model.js";
import { type CliResult, runCommand } from "../helpers/daemon.js";
import { REPO_ROOT } from "../helpers/daemon.js";
import { installGlobally, nodeOnlyBinDir, type PackedTarball, packRepository } from "./installed-package.js";

const PACKAGE = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string; bin: Record<string, string> };
const COMMANDS = ["memd", "memctl", "memd-mcp", "memd-hook"];
const FIXTURE = path.join(REPO_ROOT, "test/hooks/fixtures/session-start.json");
// Packing takes seconds; the install compiles better-sqlite3 from source (about a minute on an
// idle machine, several while other test files share the two cores).
const INSTALL_WITHIN_MS = 10 * 60_000;
const MODEL_READY_WITHIN_MS = 120_000;

describe("the npm pack tarball installed with npm install --global", () => {
  let root: string;
  let packed: PackedTarball;
  let prefix: string;
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  let daemon: ChildProcess | null = null;
  let daemonStderr = "";

  /** Runs an installed command in the workspace project with nothing but the install and node on PATH. */
  const run = (command: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> =>
    runCommand(path.join(prefix, "bin", command), args, { env: { ...env, ...options.env }, cwd: workspace, input: options.input });

  /** Runs a command that must succeed and returns its stdout. */
  const ok = async (command: string, args: string[]): Promise<string> => {
    const result = await run(command, args);
    if (result.code !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.code}: ${result.stderr}`);
    return result.stdout;
  };

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "memd-pk-"));
    packed = await packRepository(REPO_ROOT, root);
    prefix = path.join(root, "prefix");
    const install = await installGlobally(packed.file, prefix);
    if (install.code !== 0) throw new Error(`npm install --global exited with ${install.code}:\n${install.stderr}`);

    workspace = path.join(root, "acme-api");
    fs.mkdirSync(workspace);
    env = {
      PATH: [path.join(prefix, "bin"), nodeOnlyBinDir(root)].join(path.delimiter),
      HOME: path.join(root, "user"),
      MEMD_HOME: path.join(root, "home"),
    };
    // The local model ships in the @energetic-ai dependencies; choosing it (rather than auto)
    // keeps an Ollama that happens to run on this machine out of the test.
    const child = spawn(path.join(prefix, "bin", "memd"), [], { env: { ...env, MEMD_EMBEDDER: "local" }, stdio: ["ignore", "ignore", "pipe"] });
    daemon = child;
    child.stderr?.on("data", (chunk: Buffer) => {
      daemonStderr += chunk.toString();
    });
    const deadline = Date.now() + 30_000;
    while ((await run("memctl", ["health"])).code !== 0) {
      if (child.exitCode !== null) throw new Error(`the installed memd exited with ${child.exitCode}: ${daemonStderr}`);
      if (Date.now() > deadline) throw new Error(`the installed memd did not answer health: ${daemonStderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, INSTALL_WITHIN_MS);

  afterAll(async () => {
    const child = daemon;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("packs the compiled daemon, clients, hooks, protos and the static embedding table, without tests or benchmarks", () => {
    const outside = packed.files.filter(
      (file) => !/^(dist\/(daemon|clients|hooks|gen)\/|hooks\/memd-hook\.sh$|proto\/|daemon\/assets\/|package\.json$|README\.md$)/.test(file),
    );
    expect(outside).toEqual([]);
    expect(packed.files).toContain("daemon/assets/use-lite-static.bin");
    expect(packed.files.filter((file) => /\.test\./.test(file))).toEqual([]);
    expect(packed.files).toEqual(expect.arrayContaining(Object.values(PACKAGE.bin)));
  });

  it("puts memd, memctl, memd-mcp and memd-hook on the PATH", async () => {
    expect(fs.readdirSync(path.join(prefix, "bin")).sort()).toEqual([...COMMANDS].sort());
    const help = await run("memd", ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: memd /);
    expect(await ok("memd", ["--version"])).toBe(`${PACKAGE.version}\n`);
    expect(await ok("memctl", ["--help"])).toMatch(/^Usage: memctl /);
  });

  it("keeps a memory added with memctl and finds it by keyword", async () => {
    expect(await ok("memctl", ["add", "The staging database is restored from the nightly snapshot", "--kind", "fact"])).toMatch(
      /^saved [0-9A-Z]{26} in acme-api/,
    );
    expect(await ok("memctl", ["search", "nightly snapshot", "--mode", "keyword"])).toContain(
      "The staging database is restored from the nightly snapshot",
    );
  });

  it("embeds memories with the local model from the installed dependencies", async () => {
    await ok("memctl", ["add", "Payments retry webhooks with exponential backoff", "--kind", "fact"]);
    const deadline = Date.now() + MODEL_READY_WITHIN_MS;
    for (;;) {
      const { embedder } = JSON.parse(await ok("memctl", ["health", "--json"])) as {
        embedder: { provider: string; state: string; queueDepth?: string; lastError?: string };
      };
      expect(embedder.provider).toBe("local");
      if (embedder.state === "EMBEDDER_STATE_FAILING") throw new Error(`the local model failed: ${embedder.lastError}`);
      if (embedder.state === "EMBEDDER_STATE_READY" && Number(embedder.queueDepth ?? 0) === 0) break;
      if (Date.now() > deadline) throw new Error(`the local model was not ready within ${MODEL_READY_WITHIN_MS} ms: ${JSON.stringify(embedder)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await ok("memctl", ["search", "how are failed payment callbacks repeated", "--mode", "vector"])).toContain(
      "Payments retry webhooks with exponential backoff",
    );
  });

  it("briefs a Claude Code session with the project's decision through memd-hook", async () => {
    await ok("memctl", ["add", "Auth is Clerk, not custom JWT", "--kind", "decision"]);
    const payload = { ...(JSON.parse(fs.readFileSync(FIXTURE, "utf8")) as object), cwd: workspace, session_id: "packaged-1" };
    // A generous budget: the hook must not give up because other test files load the machine.
    const hook = await run("memd-hook", ["SessionStart"], { input: JSON.stringify(payload), env: { MEMD_HOOK_TIMEOUT_MS: "10000" } });
    expect(hook.code).toBe(0);
    expect(hook.stderr).toBe("");
    const output = JSON.parse(hook.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(output.hookSpecificOutput.hookEventName).toBe("SessionStart");
    expect(output.hookSpecificOutput.additionalContext).toContain("Auth is Clerk, not custom JWT");
  });

  it("briefs a Claude Code session through the installed curl shim as setup wires it", async () => {
    await ok("memctl", ["add", "Deploys go through Argo CD, never kubectl apply", "--kind", "decision"]);
    const pkg = path.join(prefix, "lib/node_modules/memd");
    const payload = { ...(JSON.parse(fs.readFileSync(FIXTURE, "utf8")) as object), cwd: workspace, session_id: "packaged-curl-1" };
    const hook = await runCommand("/bin/sh", [path.join(pkg, "hooks/memd-hook.sh"), "session-start", process.execPath, path.join(pkg, "dist/hooks/src/main.js")], {
      env: { ...env, PATH: "/usr/bin:/bin", MEMD_HOOK_TIMEOUT_MS: "10000" },
      cwd: workspace,
      input: JSON.stringify(payload),
    });
    expect(hook.stderr).toBe("");
    expect((JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext).toContain("Deploys go through Argo CD");
  });

  it("answers initialize and tools/list over stdio with memd-mcp, and searches the daemon", async () => {
    const client = new Client({ name: "memd-packaging-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: path.join(prefix, "bin", "memd-mcp"), args: [], cwd: workspace, env: env as Record<string, string>, stderr: "pipe" }));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "memd", version: PACKAGE.version });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["memory_save", "memory_search", "memory_start"]));
      const found = (await client.callTool({ name: "memory_search", arguments: { query: "nightly snapshot" } })) as CallToolResult;
      expect(found.isError).toBeFalsy();
      expect(found.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")).toContain("nightly snapshot");
    } finally {
      await client.close();
    }
  });

  it("runs an ONNX export with the onnxruntime-node it installed, whose CUDA fetch was skipped", async () => {
    expect(fs.existsSync(path.join(prefix, "lib/node_modules/memd/node_modules/onnxruntime-node/package.json"))).toBe(true);
    const model = path.join(root, "tiny-encoder");
    writeEncoderModel(model, { layers: 1, hidden: 16, heads: 2, intermediate: 32, maxPositions: 64, quantized: true, vocabulary: ["memd"] }, 9);
    const home = path.join(root, "onnx-home");
    const child = spawn(path.join(prefix, "bin", "memd"), [], { env: { ...env, MEMD_HOME: home, MEMD_EMBEDDER: "onnx", MEMD_ONNX_MODEL: model }, stdio: "ignore" });
    try {
      const deadline = Date.now() + 30_000;
      let health: CliResult;
      while ((health = await run("memctl", ["health", "--json"], { env: { MEMD_HOME: home } })).code !== 0) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the installed memd did not start with the ONNX model: ${health.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(JSON.parse(health.stdout).embedder).toMatchObject({ provider: "onnx", model: "tiny-encoder", dimensions: 16 });
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("stops the installed daemon with memctl stop", async () => {
    const exited = new Promise<number | null>((resolve) => daemon?.once("exit", (code) => resolve(code)));
    expect(await ok("memctl", ["stop"])).toMatch(/^memd stopped \(pid \d+\)/);
    expect(await exited).toBe(0);
  });
});
