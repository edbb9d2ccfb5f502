import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { healthPid, startDetachedDaemon } from "../../transport/daemon-start.js";
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
        const started = await startDetachedDaemon({
          clients: ctx.clients,
          endpoint: ctx.endpoint,
          daemonMain: DAEMON_MAIN,
          args: opts.listen ? ["--listen", opts.listen] : [],
          withinMs: START_TIMEOUT_MS,
        }).catch((error: unknown) => {
          throw new CliFailure(error instanceof Error ? error.message : String(error));
        });
        ctx.print(
          started.alreadyRunning
            ? `memd is already running (pid ${started.pid})`
            : `memd started (pid ${started.pid}), socket ${ctx.endpoint.socketPath}`,
        );
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
