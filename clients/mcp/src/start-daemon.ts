import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { DaemonLink } from "./daemon-link.js";
import { ToolFailure } from "./tool-result.js";

const START_TIMEOUT_MS = 15_000;

/**
 * Starts the daemon detached, as `memctl start` does, and waits until it answers Health.
 * Returns a sentence for the agent; a daemon that is already running is left alone.
 */
export async function startDaemon(link: DaemonLink, daemonMain: string): Promise<string> {
  const running = await healthPid(link);
  if (running !== null) return `memd is already running (pid ${running})`;
  const { endpoint } = link;
  fs.mkdirSync(endpoint.logDir, { recursive: true, mode: 0o700 });
  const errFile = path.join(endpoint.logDir, "memd.stderr.log");
  const err = fs.openSync(errFile, "w", 0o600);
  // stdout must stay ignored: this process's stdout is the MCP protocol channel.
  const child = spawn(process.execPath, [daemonMain, "--home", endpoint.home], { detached: true, stdio: ["ignore", "ignore", err] });
  fs.closeSync(err);
  let exited: number | null = null;
  child.once("exit", (code) => {
    exited = code ?? 1;
  });
  child.once("error", () => {
    exited = 1;
  });
  child.unref();
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited !== null) {
      const reason = fs.readFileSync(errFile, "utf8").trim().split("\n").at(-1) ?? "";
      throw new ToolFailure(`memd exited at start (code ${exited}): ${reason.replace(/^memd: /, "")}; see ${errFile}`);
    }
    const pid = await healthPid(link);
    if (pid !== null) return `memd started (pid ${pid}), home ${endpoint.home}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new ToolFailure(`memd did not answer within ${START_TIMEOUT_MS / 1000}s; see ${errFile}`);
}

async function healthPid(link: DaemonLink): Promise<number | null> {
  try {
    const { health } = await link.clients().admin.health({}, { timeoutMs: 2000 });
    return health?.pid ?? null;
  } catch {
    return null;
  }
}
