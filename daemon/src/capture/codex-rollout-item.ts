import { argumentsObject, EDIT_TOOL, isRecord, patchUses, SHELL_TOOL, str, textEvent, toolResult, toolUse, type TranscriptEvent } from "./transcript-event.js";

/**
 * Codex rollout items (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) as transcript events:
 * messages, shell runs with their exit codes, and apply_patch edits.
 */
// Formats read from openai/codex: codex-rs/protocol/src/models.rs (ResponseItem),
// codex-rs/core/src/tools (how shell results are written for the model) and
// codex-rs/core/src/contextual_user_message.rs (the blocks Codex injects as user messages).

/** Response item types old rollouts wrote bare, without the `response_item` envelope. */
export const LEGACY_CODEX_ITEMS = new Set(["message", "function_call", "function_call_output", "local_shell_call", "custom_tool_call", "custom_tool_call_output"]);

/** Function tools whose `command` argument is an argv array (`["bash", "-lc", "..."]`). */
const ARGV_SHELL_TOOLS = new Set(["shell", "container.exec", "local_shell"]);

/**
 * User-role messages Codex writes itself: AGENTS.md and `<user_instructions>` blocks, the
 * environment context, skill bodies, `!` shell commands, interrupted-turn notices, subagent
 * notifications, editor context and hook prompts. Codex counts a message holding any of these
 * as context rather than the user's request; so does this.
 */
const CODEX_CONTEXT_PREFIXES = [
  "# agents.md instructions for ",
  "<user_instructions>",
  "<environment_context>",
  "<skill>",
  "<user_shell_command>",
  "<turn_aborted>",
  "<subagent_notification>",
  "<additional_context>",
  "<hook_prompt",
];

/** Older Codex IDE clients put editor context before this line and the request after it. */
const USER_REQUEST_MARKER = "## My request for Codex:";

export function codexItemEvents(item: Record<string, unknown>, line: number): TranscriptEvent[] {
  switch (item.type) {
    case "message":
      return codexMessageEvents(item, line);
    case "function_call":
      return codexFunctionCall(str(item.call_id), str(item.name), item.arguments, line);
    case "local_shell_call": {
      const action = isRecord(item.action) ? item.action : {};
      return shellUse(str(item.call_id) || str(item.id), action.command, line);
    }
    case "custom_tool_call":
      if (item.name === "apply_patch") return patchUses(str(item.call_id), str(item.input), line);
      return [toolUse(str(item.call_id), str(item.name), "", "", line)];
    case "function_call_output":
    case "custom_tool_call_output":
      return codexResult(str(item.call_id), item.output, line);
    default:
      // reasoning, web_search_call, agent_message (between agents), compaction, ghost_snapshot...
      return [];
  }
}

function codexMessageEvents(item: Record<string, unknown>, line: number): TranscriptEvent[] {
  const role = item.role;
  // developer and system messages are Codex's own instructions.
  if (role !== "user" && role !== "assistant") return [];
  const blocks = Array.isArray(item.content) ? item.content.filter(isRecord) : [];
  const texts = blocks.filter((b) => b.type === "input_text" || b.type === "output_text" || b.type === "text").map((b) => str(b.text));
  if (role === "user" && texts.some(isCodexContext)) return [];
  return texts.flatMap((text) => textEvent(role, role === "user" ? userRequest(text) : text, line));
}

function isCodexContext(text: string): boolean {
  const start = text.trimStart().toLowerCase();
  return CODEX_CONTEXT_PREFIXES.some((prefix) => start.startsWith(prefix));
}

function userRequest(text: string): string {
  const at = text.indexOf(USER_REQUEST_MARKER);
  return at < 0 ? text : text.slice(at + USER_REQUEST_MARKER.length).trim();
}

function codexFunctionCall(id: string, name: string, rawArguments: unknown, line: number): TranscriptEvent[] {
  const args = argumentsObject(rawArguments);
  if (ARGV_SHELL_TOOLS.has(name)) return shellUse(id, args.command, line);
  // shell_command takes the script as one string, exec_command (unified exec) as `cmd`.
  if (name === "shell_command") return shellScriptUse(id, str(args.command), line);
  if (name === "exec_command") return shellScriptUse(id, str(args.cmd), line);
  if (name === "apply_patch") return patchUses(id, str(args.input) || str(args.patch), line);
  return [toolUse(id, name, "", "", line)];
}

/** A shell call given as argv; `["bash", "-lc", "X"]` is the command X. */
function shellUse(id: string, argv: unknown, line: number): TranscriptEvent[] {
  if (typeof argv === "string") return shellScriptUse(id, argv, line);
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a): a is string => typeof a === "string")) {
    return [toolUse(id, SHELL_TOOL, "", "", line)];
  }
  // The model may send a patch as ["apply_patch", "*** Begin Patch..."]; Codex applies it as one.
  if ((argv[0] === "apply_patch" || argv[0] === "applypatch") && argv.length === 2) return patchUses(id, argv[1] as string, line);
  const script = scriptOf(argv);
  return script === undefined ? [toolUse(id, SHELL_TOOL, quoteArgv(argv), "", line)] : shellScriptUse(id, script, line);
}

function shellScriptUse(id: string, script: string, line: number): TranscriptEvent[] {
  // `apply_patch <<'EOF' ... EOF` run through the shell is an edit too.
  if (/^\s*(?:apply_patch|applypatch)\b/.test(script) && script.includes("*** Begin Patch")) return patchUses(id, script, line);
  return [toolUse(id, SHELL_TOOL, script, "", line)];
}

const SHELLS = /^(?:ba|z|da|k|fi)?sh$|^(?:pwsh|powershell)(?:\.exe)?$|^cmd(?:\.exe)?$/i;
const SCRIPT_FLAGS = new Set(["-c", "-lc", "-ic", "-lic", "-Command", "-command", "/c", "/C"]);

/** The script of `<shell> [options] <flag> <script>`, or undefined for any other argv. */
function scriptOf(argv: readonly string[]): string | undefined {
  if (argv.length < 3) return undefined;
  const program = (argv[0] as string).split(/[\\/]/).pop() ?? "";
  if (!SHELLS.test(program) || !SCRIPT_FLAGS.has(argv[argv.length - 2] as string)) return undefined;
  return argv[argv.length - 1];
}

/** argv as one POSIX shell line: words that need it are single-quoted. */
function quoteArgv(argv: readonly string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(" ");
}

/**
 * A tool's output as Codex wrote it for the model. Shell runs record their exit code in one of
 * three shapes, depending on the tool and the Codex version:
 * - `shell` (argv) and apply_patch: JSON `{"output": "...", "metadata": {"exit_code": 1, ...}}`;
 * - `shell_command`: `Exit code: 1\nWall time: 0.2 seconds\n[Total output lines: N\n]Output:\n...`;
 * - `exec_command`: `Chunk ID: ..\nWall time: ..\nProcess exited with code 1\n...Output:\n...`, or
 *   `Process running with session ID 7` while the command is still going (its end then comes
 *   in a later `write_stdin` call's output, under that call's id).
 * A run that failed before exiting says `execution error: ...`.
 */
function codexResult(callId: string, output: unknown, line: number): TranscriptEvent[] {
  const { text, failed } = outputText(output);
  const exec = execOutcome(text);
  if (exec.running) return [];
  const isError = exec.exitCode !== undefined ? exec.exitCode !== 0 : failed || /^execution error:/i.test(text.trimStart());
  return [toolResult(callId, isError, exec.exitCode, exec.body, line)];
}

/** `output` is a string, an array of `input_text`/`input_image` items, or (rarely) `{content, success}`. */
function outputText(output: unknown): { text: string; failed: boolean } {
  if (typeof output === "string") return { text: output, failed: false };
  if (Array.isArray(output)) {
    const text = output
      .filter(isRecord)
      .map((item) => (item.type === "input_text" || item.type === "output_text" || item.type === "text" ? str(item.text) : ""))
      .filter((t) => t !== "")
      .join("\n");
    return { text, failed: false };
  }
  if (isRecord(output)) {
    const inner = outputText(output.content ?? output.body ?? output.output);
    return { text: inner.text, failed: inner.failed || output.success === false };
  }
  return { text: "", failed: false };
}

const EXEC_HEADER = /^(?:Exit code: -?\d+|Chunk ID: .*|Wall time: .*|Process exited with code -?\d+|Process running with (?:session|command) ID .*)$/;

function execOutcome(text: string): { exitCode?: number; running: boolean; body: string } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (isRecord(parsed) && isRecord(parsed.metadata) && typeof parsed.metadata.exit_code === "number") {
        return { exitCode: parsed.metadata.exit_code, running: false, body: str(parsed.output) };
      }
    } catch {
      // Not the structured shape: plain output that happens to start with a brace.
    }
  }
  const lines = text.split("\n");
  if (!EXEC_HEADER.test(lines[0] ?? "")) return { running: false, body: text };
  let exitCode: number | undefined;
  let running = false;
  for (let i = 0; i < lines.length && i < 8; i++) {
    const header = lines[i] as string;
    if (header === "Output:") return { exitCode, running: running && exitCode === undefined, body: lines.slice(i + 1).join("\n") };
    const exit = /^(?:Exit code: |Process exited with code )(-?\d+)$/.exec(header);
    if (exit) exitCode = Number(exit[1]);
    if (/^Process running with (?:session|command) ID /.test(header)) running = true;
  }
  return { exitCode, running: running && exitCode === undefined, body: text };
}
