#!/usr/bin/env node
// memd-hook <event>: the Claude Code hook shim. It reads the hook payload on stdin, talks to
// the daemon over its Unix socket within a time budget, and prints at most one JSON object.
// It fails open: whatever goes wrong, it exits 0 with nothing on stdout or stderr and leaves
// one line in MEMD_HOME/logs/hooks.log.
import { createDaemonCaller, DaemonCallError } from "./daemon-call.js";
import { readHookEnv } from "./hook-env.js";
import { parseHookInput } from "./hook-input.js";
import { appendHookLog } from "./hook-log.js";
import { saveFromTool } from "./post-tool-use.js";
import { sweepTranscript } from "./session-end.js";
import { sessionBriefing } from "./session-start.js";
import { promptPointers } from "./user-prompt-submit.js";

/** Claude Code caps each output string at 10,000 characters; stay well under it. */
const MAX_CONTEXT_CHARS = 8000;
/** What exiting costs after giving up, measured at about 10 ms on a loaded machine. */
const EXIT_MARGIN_MS = 25;
const EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "SessionEnd", "PreCompact", "Stop"];

/** "session-start" and "SessionStart" name the same event. */
function eventName(arg: string): string {
  const flat = arg.replace(/[-_]/g, "").toLowerCase();
  return EVENTS.find((event) => event.toLowerCase() === flat) ?? arg;
}

const event = eventName(process.argv[2] ?? "");
const env = readHookEnv(event);
const abort = new AbortController();

// Set once the run gives up; from then on only the log line is written, then the process exits.
let failedOpen = false;

function finish(output: string): void {
  if (failedOpen) return;
  if (output === "") process.exit(0);
  process.stdout.write(output, () => process.exit(0));
}

function failOpen(reason: string): void {
  // Aborting the call makes it fail as well: the first reason is the one logged.
  if (failedOpen) return;
  failedOpen = true;
  abort.abort();
  void appendHookLog(env.endpoint.logDir, event, reason).finally(() => process.exit(0));
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
  const input = parseHookInput(await readStdin());
  const daemon = createDaemonCaller(env.endpoint.socketPath, abort.signal, remainingMs);
  switch (event) {
    case "SessionStart":
      return sessionBriefing(input, daemon);
    case "UserPromptSubmit":
      return promptPointers(input, daemon);
    case "PostToolUse":
    case "PostToolUseFailure":
      return saveFromTool({ ...input, eventName: event }, daemon);
    case "SessionEnd":
    case "PreCompact":
      return sweepTranscript({ ...input, eventName: event }, daemon);
    default:
      return "";
  }
}

run().then(
  (context) => {
    const text = context.length > MAX_CONTEXT_CHARS ? `${context.slice(0, MAX_CONTEXT_CHARS - 1)}…` : context;
    finish(text === "" ? "" : JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } }));
  },
  (error: unknown) => {
    if (error instanceof DaemonCallError) failOpen(`daemon call failed: ${error.message}`);
    else failOpen(`failed: ${error instanceof Error ? error.message : String(error)}`);
  },
);
