import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createMemdClients, createSocketTransport, type MemdClients } from "../clients/transport/transport.js";

// Compiled to dist/bench/, beside dist/daemon/: the harness runs the binary users run.
// This is bench/daemon-process.ts's startBenchDaemon plus daemon settings (MEMD_EMBEDDER):
// that one passes MEMD_HOME alone, which is right for the latency benchmark.
const DAEMON_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../daemon/src/main.js");
const HEALTHY_WITHIN_MS = 30_000;
const STOP_WITHIN_MS = 15_000;

export interface RecallDaemon {
  pid: number;
  home: string;
  clients: MemdClients;
  /** The daemon's stderr so far, for error messages. */
  stderr(): string;
  /** SIGTERM, wait for the clean exit (SIGKILL if it hangs), then delete the state directory. */
  stop(): Promise<void>;
}

/**
 * Starts the compiled daemon on a fresh state directory with the given MEMD_* settings and waits
 * until it answers Health. No other MEMD_* variable of the caller's shell reaches it.
 */
export async function startRecallDaemon(settings: Readonly<Record<`MEMD_${string}`, string>>): Promise<RecallDaemon> {
  if (!fs.existsSync(DAEMON_BIN)) throw new Error(`${DAEMON_BIN} is missing: run npm run build first`);
  // A short prefix: the socket path inside it must stay under ~100 bytes.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "memd-r-"));
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("MEMD_"));
  const child = spawn(process.execPath, [DAEMON_BIN], {
    env: { ...Object.fromEntries(inherited), ...settings, MEMD_HOME: home },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    // Keep the tail only: a daemon logging for minutes must not grow this without bound.
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const clients = createMemdClients(createSocketTransport({ socketPath: path.join(home, "memd.sock"), httpVersion: "2" }));
  let stopping: Promise<void> | null = null;
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
  return { pid: child.pid, home, clients, stderr: () => stderr, stop };
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
