#!/usr/bin/env node
// memd-hook <event> [agent]: the command-hook shim of Claude Code (the default agent,
// claude-code), Codex (codex), Gemini CLI (gemini), Copilot CLI (copilot) and Cursor (cursor)
// where curl is missing. It forwards the
// hook payload on stdin to the daemon's hook route over its Unix socket, within a time budget,
// and prints the daemon's answer: every decision about the event is the daemon's
// (daemon/src/agent-hooks/). It fails open: whatever goes wrong, it exits 0 with nothing on
// stdout or stderr and leaves one line in MEMD_HOME/logs/hooks.log.
import { forwardHookEvent, HookForwardError } from "./forward-event.js";
import { readHookEnv } from "./hook-env.js";
import { appendHookLog } from "./hook-log.js";

/** What exiting costs after giving up: about 10 ms, and up to 30 on a loaded machine. */
const EXIT_MARGIN_MS = 35;
// The daemon knows each agent's events (session-start and SessionStart alike) and answers 404
// for others; this only keeps the event and the agent one path segment each.
const event = /^[A-Za-z][A-Za-z-]*$/.test(process.argv[2] ?? "") ? (process.argv[2] as string) : "";
const agent = /^[a-z][a-z-]*$/.test(process.argv[3] ?? "") ? (process.argv[3] as string) : "claude-code";
const env = readHookEnv(event);
const abort = new AbortController();

function finish(output: string): void {
  if (output === "") process.exit(0);
  process.stdout.write(output, () => process.exit(0));
}

function failOpen(reason: string): void {
  abort.abort();
  appendHookLog(env.endpoint.logDir, event, reason);
  process.exit(0);
}

process.on("uncaughtException", (error) => failOpen(`crashed: ${error instanceof Error ? error.message : String(error)}`));
process.on("unhandledRejection", (error) => failOpen(`crashed: ${error instanceof Error ? error.message : String(error)}`));
// The budget counts from process start (performance.now() is measured from it), not from
// here: Node's own start-up is part of what the user waits for. Exiting takes a few
// milliseconds of its own, so give up that much early and end within the budget.
const remainingMs = () => Math.max(0, env.budgetMs - EXIT_MARGIN_MS - performance.now());
setTimeout(() => failOpen(`gave up after the ${env.budgetMs} ms budget`), remainingMs());

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => {
      text += chunk;
    });
    process.stdin.on("end", () => resolve(text));
    process.stdin.on("error", reject);
  });
}

async function run(): Promise<string> {
  const payload = await readStdin();
  if (event === "") return "";
  return forwardHookEvent({ socketPath: env.endpoint.socketPath, route: `/hooks/${agent}/${event}`, payload, signal: abort.signal, remainingMs });
}

run().then(finish, (error: unknown) => {
  if (error instanceof HookForwardError) failOpen(`daemon call failed: ${error.message}`);
  else failOpen(`failed: ${error instanceof Error ? error.message : String(error)}`);
});
