import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { MemdClients } from "../../transport/transport.js";
import { action, CliFailure } from "./context.js";

const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 15_000;

/** The daemon's entry point in the installed package, next to this CLI in dist/. */
const DAEMON_MAIN = fileURLToPath(new URL("../../../daemon/src/main.js", import.meta.url));

export function registerDaemonCommands(program: Command): void {
  program
    .command("start")
    .description("start the memd daemon in the background (does nothing if it is running)")
    .option("--listen <host:port>", "also serve loopback TCP with a bearer token")
    .action(
      action(async (ctx, opts: { listen?: string }) => {
        const running = await healthPid(ctx.clients);
        if (running !== null) {
          ctx.print(`memd is already running (pid ${running})`);
          return;
        }
        fs.mkdirSync(ctx.endpoint.logDir, { recursive: true, mode: 0o700 });
        const errFile = path.join(ctx.endpoint.logDir, "memd.stderr.log");
        const err = fs.openSync(errFile, "w", 0o600);
        const args = [DAEMON_MAIN, "--home", ctx.endpoint.home, ...(opts.listen ? ["--listen", opts.listen] : [])];
        const child = spawn(process.execPath, args, { detached: true, stdio: ["ignore", "ignore", err] });
        fs.closeSync(err);
        let exited: number | null = null;
        child.once("exit", (code) => {
          exited = code ?? 1;
        });
        child.unref();
        const deadline = Date.now() + START_TIMEOUT_MS;
        while (Date.now() < deadline) {
          if (exited !== null) {
            const reason = fs.readFileSync(errFile, "utf8").trim().split("\n").at(-1) ?? "";
            throw new CliFailure(`memd exited at start (code ${exited}): ${reason.replace(/^memd: /, "")}`);
          }
          const pid = await healthPid(ctx.clients);
          if (pid !== null) {
            ctx.print(`memd started (pid ${pid}), socket ${ctx.endpoint.socketPath}`);
            return;
          }
          await sleep(50);
        }
        throw new CliFailure(`memd did not answer within ${START_TIMEOUT_MS / 1000}s; see ${errFile}`);
      }),
    );

  program
    .command("stop")
    .description("stop the memd daemon (it finishes in-flight requests first)")
    .action(
      action(async (ctx) => {
        const pid = await healthPid(ctx.clients);
        if (pid === null) {
          ctx.print("memd is not running");
          return;
        }
        process.kill(pid, "SIGTERM");
        const deadline = Date.now() + STOP_TIMEOUT_MS;
        while (Date.now() < deadline) {
          if (!alive(pid)) {
            ctx.print(`memd stopped (pid ${pid})`);
            return;
          }
          await sleep(50);
        }
        throw new CliFailure(`memd (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000}s`);
      }),
    );
}

/** The daemon's pid if it answers Health, else null. */
export async function healthPid(clients: MemdClients): Promise<number | null> {
  try {
    const { health } = await clients.admin.health({}, { timeoutMs: 2000 });
    return health?.pid ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
