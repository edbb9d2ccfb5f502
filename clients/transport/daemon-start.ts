import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { MemdEndpoint } from "./endpoint.js";
import type { MemdClients } from "./transport.js";
import { DAEMON_NODE_OPTIONS } from "./daemon-node-options.js";

const POLL_MS = 50;

/** The daemon's pid if it answers Health, else null. */
export async function healthPid(clients: MemdClients, timeoutMs = 2000): Promise<number | null> {
  try {
    const { health } = await clients.admin.health({}, { timeoutMs });
    return health?.pid ?? null;
  } catch {
    return null;
  }
}

/**
 * Waits until the daemon answers Health and returns its pid, or null when `withinMs` passes.
 * `failure` is asked before each try: a message ends the wait with that error (the process died).
 */
export async function waitForHealth(clients: MemdClients, withinMs: number, failure: () => string | null): Promise<number | null> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const reason = failure();
    if (reason !== null) throw new Error(reason);
    const pid = await healthPid(clients, 1000);
    if (pid !== null) return pid;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return null;
}

export interface DetachedStart {
  pid: number;
  /** It was running already and was left alone. */
  alreadyRunning: boolean;
}

/**
 * Starts memd detached from the caller (it outlives it) and waits until it answers. Its
 * stderr goes to MEMD_HOME/logs/memd.stderr.log, so a daemon that exits at start says why;
 * stdout is never inherited (an MCP server's stdout is its protocol channel).
 */
export async function startDetachedDaemon(options: {
  clients: MemdClients;
  endpoint: MemdEndpoint;
  daemonMain: string;
  args?: readonly string[];
  withinMs: number;
}): Promise<DetachedStart> {
  const { clients, endpoint } = options;
  const running = await healthPid(clients);
  if (running !== null) return { pid: running, alreadyRunning: true };
  fs.mkdirSync(endpoint.logDir, { recursive: true, mode: 0o700 });
  const errFile = path.join(endpoint.logDir, "memd.stderr.log");
  const err = fs.openSync(errFile, "w", 0o600);
  const child = spawn(process.execPath, [...DAEMON_NODE_OPTIONS, options.daemonMain, "--home", endpoint.home, ...(options.args ?? [])], {
    detached: true,
    stdio: ["ignore", "ignore", err],
  });
  fs.closeSync(err);
  let exited: number | null = null;
  child.once("exit", (code) => {
    exited = code ?? 1;
  });
  child.once("error", () => {
    exited = 1;
  });
  child.unref();
  const pid = await waitForHealth(clients, options.withinMs, () => {
    if (exited === null) return null;
    const reason = fs.readFileSync(errFile, "utf8").trim().split("\n").at(-1) ?? "";
    return `memd exited at start (code ${exited}): ${reason.replace(/^memd: /, "")}; see ${errFile}`;
  });
  if (pid === null) throw new Error(`memd did not answer within ${options.withinMs / 1000}s; see ${errFile}`);
  return { pid, alreadyRunning: false };
}
