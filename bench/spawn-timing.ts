import { spawn } from "node:child_process";
import { type LatencySummary, summarize } from "./latency.js";

/** One process run from spawn to exit. */
export interface TimedRun {
  /** From just before spawn() until the process exited and its stdout and stderr were read to the end. */
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Gives up on a process that runs this long: every process timed here should end in well under a second. */
const KILL_AFTER_MS = 30_000;

/** Runs `node <args>` with `input` on stdin and times it to the end, as a hook runner waits for it. */
export function timeNodeProcess(args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string }): Promise<TimedRun> {
  return runChild(process.execPath, args, { ...options, killAfterMs: KILL_AFTER_MS });
}

/**
 * Runs a command (no shell) with `input` on stdin, collects its output and times it from just
 * before spawn until it exited and its output was read; killed after `killAfterMs` if given.
 */
export function runChild(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string; killAfterMs?: number },
): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A process that exits before reading its stdin makes the write fail with EPIPE; that is its business.
    child.stdin.on("error", () => undefined);
    const timer = options.killAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.killAfterMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - started, code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** `node -e 0` from spawn to exit: what any Node program costs before it does anything. */
export async function measureNodeFloor(runs: number, warmup: number): Promise<LatencySummary> {
  const env = clientEnvironment({});
  const durations: number[] = [];
  for (let i = 0; i < warmup + runs; i += 1) {
    const run = await timeNodeProcess(["-e", "0"], { env });
    if (run.code !== 0) throw new Error(`node -e 0 exited with ${run.code}: ${run.stderr}`);
    if (i >= warmup) durations.push(run.ms);
  }
  return summarize(durations);
}

/** The caller's environment without MEMD_* (as for the bench daemons), plus the given settings. */
export function clientEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("MEMD_"));
  return { ...Object.fromEntries(inherited), ...settings };
}
