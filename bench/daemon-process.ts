import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DAEMON_NODE_OPTIONS } from "../clients/transport/daemon-node-options.js";
import { waitForHealth } from "../clients/transport/daemon-start.js";
import { createMemdClients, createSocketTransport, type MemdClients } from "../clients/transport/transport.js";
import { count } from "./table.js";

// This file compiles to dist/bench/, beside dist/daemon/: the benchmark runs the binary users run.
const DAEMON_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../daemon/src/main.js");
const HEALTHY_WITHIN_MS = 30_000;
const STOP_WITHIN_MS = 15_000;

/** What the daemon is given besides MEMD_HOME: MEMD_* settings, and OLLAMA_HOST, which the daemon reads too. */
export interface DaemonSettings {
  readonly [name: `MEMD_${string}`]: string;
  readonly OLLAMA_HOST?: string;
}

export interface BenchDaemon {
  pid: number;
  home: string;
  /** Over HTTP/1.1 with binary protobuf, as memctl and the MCP adapter talk to it (the hooks send JSON over HTTP/1.1). */
  clients: MemdClients;
  /** The tail of the daemon's stderr, for error messages. */
  stderr(): string;
  /** SIGTERM, wait for the clean exit (SIGKILL if it hangs), then delete the state directory unless `keepHome` (to start another daemon on it). */
  stop(options?: { keepHome?: boolean }): Promise<void>;
}

// Every daemon started and not yet stopped, so that a signal can stop them all.
const running = new Set<BenchDaemon>();

/**
 * Starts the compiled daemon on a fresh state directory with the given settings and waits until
 * it answers Health. No MEMD_* variable of the caller's shell reaches it: a MEMD_EMBEDDER or
 * MEMD_LOG_LEVEL left there would change what is measured. Other variables pass (OLLAMA_HOST for
 * bench:recall --embedder ollama), unless `settings` sets them. `existingHome` starts it on a
 * state directory a previous daemon left (stopped with keepHome). `daemonBin` runs another build's
 * daemon (another checkout's dist/daemon/src/main.js), to measure it beside this one.
 */
export async function startBenchDaemon(settings: DaemonSettings = {}, existingHome?: string, daemonBin: string = DAEMON_BIN): Promise<BenchDaemon> {
  if (!fs.existsSync(daemonBin)) throw new Error(`${daemonBin} is missing: run npm run build first`);
  // A short prefix: the socket path inside it must stay under ~100 bytes.
  const home = existingHome ?? fs.mkdtempSync(path.join(os.tmpdir(), "memd-b-"));
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("MEMD_"));
  // This build's daemon runs with the options users' daemons get; another build's as it was started then.
  const child = spawn(process.execPath, [...(daemonBin === DAEMON_BIN ? DAEMON_NODE_OPTIONS : []), daemonBin], {
    env: { ...Object.fromEntries(inherited), ...settings, MEMD_HOME: home },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    // Keep the tail only: a daemon logging for minutes must not grow this without bound.
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const clients = createMemdClients(createSocketTransport({ socketPath: path.join(home, "memd.sock"), httpVersion: "1.1" }));
  let stopping: Promise<void> | null = null;
  // Idempotent: a signal handler and the normal path may both ask for it.
  const stop = (options: { keepHome?: boolean } = {}) =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_WITHIN_MS);
        await exited;
        clearTimeout(timer);
      }
      if (!options.keepHome) fs.rmSync(home, { recursive: true, force: true });
      running.delete(daemon);
    })());
  const daemon: BenchDaemon = { pid: child.pid ?? 0, home, clients, stderr: () => stderr, stop };
  running.add(daemon);
  try {
    await waitUntilHealthy(clients, child, () => stderr);
    if (child.pid === undefined) throw new Error("memd has no pid");
  } catch (error) {
    await stop();
    throw error;
  }
  return daemon;
}

/** Stops every daemon this process started that is still running (on a signal). */
export async function stopAllBenchDaemons(): Promise<void> {
  await Promise.all([...running].map((daemon) => daemon.stop()));
}

async function waitUntilHealthy(clients: MemdClients, child: ChildProcess, stderr: () => string): Promise<void> {
  const pid = await waitForHealth(clients, HEALTHY_WITHIN_MS, () => (child.exitCode === null ? null : `memd exited with ${child.exitCode}: ${stderr()}`));
  if (pid !== null) return;
  child.kill("SIGKILL");
  throw new Error(`memd did not become healthy: ${stderr()}`);
}

export interface ResidentSet {
  rssKib: number;
  /** The high-water mark (VmHWM) since the process started. */
  peakKib: number;
}

/** The resident set size of a process in KiB, from /proc (Linux); null where there is no /proc. */
export function readRssKib(pid: number): ResidentSet | null {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const field = (name: string): number | null => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
    return match ? Number(match[1]) : null;
  };
  const rssKib = field("VmRSS");
  const peakKib = field("VmHWM");
  return rssKib === null ? null : { rssKib, peakKib: peakKib ?? rssKib };
}

/** How long the background contradiction check of imported memories may take before a run gives up, and how often Health is asked. */
const CHECK_WITHIN_MS = 20 * 60_000;
const CHECK_POLL_MS = 1000;

/** Imported memories the daemon has yet to check for contradictions, as Health reports it. */
export async function contradictionChecksPending(daemon: BenchDaemon): Promise<number> {
  const { health } = await daemon.clients.admin.health({});
  return Number(health?.contradictionChecksPending ?? 0n);
}

/** Polls Health until the background contradiction check has caught up with the import (or CHECK_WITHIN_MS passes: an error). */
export async function waitForContradictionChecks(daemon: BenchDaemon, progress: (line: string) => void): Promise<void> {
  const started = performance.now();
  let reportedAt = started;
  for (let pending = await contradictionChecksPending(daemon); pending > 0; pending = await contradictionChecksPending(daemon)) {
    if (performance.now() - started > CHECK_WITHIN_MS) throw new Error(`the contradiction check still had ${count(pending)} imported memories to go after ${CHECK_WITHIN_MS / 1000} s`);
    if (performance.now() - reportedAt > 10_000) {
      reportedAt = performance.now();
      progress(`waiting for the contradiction check: ${count(pending)} imported memories to go`);
    }
    await new Promise((resolve) => setTimeout(resolve, CHECK_POLL_MS));
  }
}
