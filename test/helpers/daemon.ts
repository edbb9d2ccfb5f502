import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { waitForHealth } from "../../clients/transport/daemon-start.js";
import { createMemdClients, createSocketTransport, type MemdClients } from "../../clients/transport/transport.js";
import { runChild } from "../../bench/spawn-timing.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DAEMON_BIN = path.join(REPO_ROOT, "dist/daemon/src/main.js");
export const CLI_BIN = path.join(REPO_ROOT, "dist/clients/cli/src/main.js");
/** memd-mcp as installed: the bundle the build writes beside the compiled adapter. */
export const MCP_BIN = path.join(REPO_ROOT, "dist/clients/mcp/src/memd-mcp.mjs");

export interface TestDaemon {
  home: string;
  socketPath: string;
  process: ChildProcess;
  /** Over HTTP/2 (h2c) with binary protobuf. */
  clients: MemdClients;
  /** The daemon's stderr so far. */
  stderr(): string;
  /** SIGTERM and wait for a clean exit; returns the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, no chance to clean up. */
  kill(): Promise<void>;
}

/** Stops a daemon a test file shared and removes its state directory. */
export async function removeDaemon(daemon: TestDaemon): Promise<void> {
  await daemon.stop();
  fs.rmSync(daemon.home, { recursive: true, force: true });
}

/** A TCP port on 127.0.0.1 that nothing listens on right now, for a daemon's --listen. */
export { freeLoopbackPort as freePort } from "../../clients/transport/free-port.js";

/** A fresh, short state directory (Unix socket paths are limited to about 100 bytes). */
export function makeHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "memd-t-"));
}

export interface SpawnOptions {
  home?: string;
  args?: string[];
  env?: Record<string, string>;
}

/** Starts the real memd binary on a state directory and waits until it answers Health. */
export async function spawnDaemon(options: SpawnOptions = {}): Promise<TestDaemon> {
  const home = options.home ?? makeHome();
  const child = spawn(process.execPath, [DAEMON_BIN, ...(options.args ?? [])], {
    // Tests that are not about embeddings run keyword-only, so that a background model does
    // not compete for the two cores; embedding tests pass MEMD_EMBEDDER themselves.
    env: { ...process.env, MEMD_HOME: home, MEMD_EMBEDDER: "none", ...options.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const socketPath = path.join(home, "memd.sock");
  const clients = createMemdClients(createSocketTransport({ socketPath, httpVersion: "2" }));
  await waitUntilHealthy(clients, child, () => stderr);
  return {
    home,
    socketPath,
    process: child,
    clients,
    stderr: () => stderr,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

async function waitUntilHealthy(clients: MemdClients, child: ChildProcess, stderr: () => string): Promise<void> {
  const pid = await waitForHealth(clients, 20_000, () => (child.exitCode === null ? null : `memd exited with ${child.exitCode}: ${stderr()}`));
  if (pid !== null) return;
  child.kill("SIGKILL");
  throw new Error(`memd did not become healthy: ${stderr()}`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command (no shell), feeding `input` on stdin, and collects its output. */
export async function runCommand(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string },
): Promise<CliResult> {
  const { code, stdout, stderr } = await runChild(command, args, options);
  return { code, stdout, stderr };
}

/** Runs a compiled entry point with Node, feeding `input` on stdin, and collects its output. */
export function runProcess(bin: string, args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<CliResult> {
  return runCommand(process.execPath, [bin, ...args], { env: { ...process.env, ...options.env }, cwd: options.cwd, input: options.input });
}

/** Runs the real memctl binary against a state directory. */
export function runCli(home: string, args: string[], options: { input?: string; cwd?: string } = {}): Promise<CliResult> {
  return runProcess(CLI_BIN, args, { env: { MEMD_HOME: home }, input: options.input, cwd: options.cwd ?? home });
}
