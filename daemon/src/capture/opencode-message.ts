import {
  EDIT_TOOL, isRecord, patchUses, SHELL_TOOL, str, textEvent, toolResult, toolUse, type TranscriptEvent, WRITE_TOOL,
} from "./transcript-event.js";

/**
 * OpenCode's stored messages as transcript events: what the user typed, what the assistant
 * wrote, and each tool it ran with the outcome. OpenCode keeps a message's metadata (`role`,
 * `summary`) apart from its parts (`text`, `tool`, `reasoning`, `step-start`...), each a JSON
 * document in its database's `message` and `part` tables.
 */
// Formats read from opencode-ai 1.18.33 (the @opencode-ai/sdk types Message, Part, ToolState,
// and the bash, edit, write and apply_patch tools in the binary), and checked against the
// session it wrote in test/capture/fixtures/opencode-session.json.

/** OpenCode's edit tools, with the file in `input.filePath`. */
const FILE_TOOLS: Record<string, string> = { edit: EDIT_TOOL, write: WRITE_TOOL };
/** What the bash tool appends to a command's output when it stopped the command (a timeout, or the user's abort). */
const SHELL_METADATA = /\n*<shell_metadata>[\s\S]*$/;
const TIMED_OUT = "shell tool terminated command after exceeding timeout";

/**
 * The events of one message, its parts in their order: a user's message is what they typed
 * (typedText), an assistant's its text (none written by a plugin) and tool calls. A compaction
 * summary (`summary: true`) restates what the model said before, and yields nothing.
 */
export function openCodeMessageEvents(message: Record<string, unknown>, parts: readonly Record<string, unknown>[], line: number): TranscriptEvent[] {
  if (message.role === "user") return textEvent("user", typedText(parts), line);
  if (message.role !== "assistant" || message.summary === true) return [];
  const events: TranscriptEvent[] = [];
  for (const part of parts) {
    if (part.type === "text" && part.synthetic !== true) events.push(...textEvent("assistant", str(part.text), line));
    else if (part.type === "tool") events.push(...toolEvents(part, line));
  }
  return events;
}

/**
 * What the user typed in a message: its text parts, without those OpenCode or a plugin added
 * (`synthetic`, memd's briefing and pointers among them) or kept from the model (`ignored`).
 */
export function typedText(parts: readonly unknown[]): string {
  return parts
    .filter(isRecord)
    .filter((part) => part.type === "text" && part.synthetic !== true && part.ignored !== true)
    .map((part) => str(part.text))
    .join("\n");
}

/** A tool call and, once it finished, its outcome; calls still pending or running have none. */
function toolEvents(part: Record<string, unknown>, line: number): TranscriptEvent[] {
  const id = str(part.callID);
  const name = str(part.tool);
  const state = isRecord(part.state) ? part.state : {};
  const input = isRecord(state.input) ? state.input : {};
  const uses =
    name === "bash"
      ? [toolUse(id, SHELL_TOOL, str(input.command), "", line)]
      : name === "apply_patch"
        ? patchUses(id, str(input.patchText), line)
        : [toolUse(id, FILE_TOOLS[name] ?? name, "", FILE_TOOLS[name] ? str(input.filePath) : "", line)];
  if (state.status === "error") return [...uses, toolResult(id, true, undefined, str(state.error), line)];
  if (state.status !== "completed") return uses;
  const metadata = isRecord(state.metadata) ? state.metadata : {};
  if (name !== "bash") return [...uses, toolResult(id, false, undefined, str(state.output), line)];
  const outcome = bashOutcome(metadata.exit, str(state.output));
  return [...uses, toolResult(id, outcome.failed, outcome.exitCode, outcome.body, line)];
}

/** How a bash tool call ended, from its `metadata.exit` and its output. */
export interface BashOutcome {
  /** The command's exit code; undefined when the tool killed it. */
  exitCode?: number;
  /** A non-zero exit, or a timeout; the user's abort is not a failure. */
  failed: boolean;
  timedOut: boolean;
  /** The output without the notice the tool appends when it killed the command. */
  body: string;
}

/** The bash tool's exit code is null when it killed the command, and its output then says why. */
export function bashOutcome(exit: unknown, output: string): BashOutcome {
  const exitCode = typeof exit === "number" && Number.isInteger(exit) ? exit : undefined;
  const timedOut = exitCode === undefined && output.includes(TIMED_OUT);
  return { exitCode, failed: timedOut || (exitCode !== undefined && exitCode !== 0), timedOut, body: output.replace(SHELL_METADATA, "") };
}
