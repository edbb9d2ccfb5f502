import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createMemdClients, createSocketTransport, type MemdClients } from "../clients/transport/transport.js";

// This file compiles to dist/bench/, beside dist/daemon/: the benchmark runs the binary users run.
const DAEMON_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../daemon/src/main.js");
const HEALTHY_WITHIN_MS = 20_000;
const STOP_WITHIN_MS = 15_000;

export interface BenchDaemon {
  pid: number;
  home: string;
  /** Over HTTP/2 (h2c) with binary protobuf, as the CLI and hooks talk to it. */
  clients: MemdClients;
  /** SIGTERM, wait for the clean exit (SIGKILL if it hangs), then delete the state directory. */
  stop(): Promise<void>;
}

/** Starts the compiled daemon on a fresh state directory and waits until it answers Health. */
export async function startBenchDaemon(): Promise<BenchDaemon> {
  if (!fs.existsSync(DAEMON_BIN)) throw new Error(`${DAEMON_BIN} is missing: run npm run build first`);
  // A short prefix: the socket path inside it must stay under ~100 bytes.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "memd-b-"));
  // Only MEMD_HOME: a MEMD_LISTEN or MEMD_LOG_LEVEL left in the caller's shell would change what is measured.
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("MEMD_"));
  const child = spawn(process.execPath, [DAEMON_BIN], {
    env: { ...Object.fromEntries(inherited), MEMD_HOME: home },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const clients = createMemdClients(createSocketTransport({ socketPath: path.join(home, "memd.sock"), httpVersion: "2" }));
  let stopping: Promise<void> | null = null;
  // Idempotent: a signal handler and the normal path may both ask for it.
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_WITHIN_MS);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(home, { recursive: true, force: true });
    })());
  try {
    await waitUntilHealthy(clients, child, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  if (child.pid === undefined) throw new Error("memd has no pid");
  return { pid: child.pid, home, clients, stop };
}

async function waitUntilHealthy(clients: MemdClients, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + HEALTHY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`memd exited with ${child.exitCode}: ${stderr()}`);
    try {
      await clients.admin.health({}, { timeoutMs: 1000 });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  throw new Error(`memd did not answer Health within ${HEALTHY_WITHIN_MS} ms: ${stderr()}`);
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
