import { bashOutcome } from "../capture/opencode-message.js";
import { isRecord, str } from "../capture/transcript-event.js";
import type { HookAgent } from "./answer-hook.js";
import type { HookInput } from "./claude-code/hook-payload.js";

/** A shell command an agent ran that failed, as its after-tool hook reported it. */
export interface ShellFailure {
  command: string;
  /** The exit line ("Exit code 1"), or "" where the agent reports none. */
  exit: string;
  /** What the command printed, without the agent's own wrapping. */
  output: string;
  interrupted: boolean;
}

/**
 * The failed shell command in an after-tool payload, or null when the payload is not one. Each
 * agent reports a failure its own way (payloads in test/hooks/fixtures, sources in its README):
 * - Claude Code: PostToolUseFailure for Bash, `error` starting "Exit code N";
 * - Gemini CLI: AfterTool for run_shell_command, which counts a non-zero exit as success and
 *   says so only in `tool_response.llmContent` ("Exit Code: N"), or `tool_response.error`;
 * - Copilot CLI: postToolUse for bash or powershell, also a success, with a trailer on the
 *   output's last line ("<shellId: 0 completed with exit code N>", or "<exited with exit code N>"
 *   in builds before 1.0.91); postToolUseFailure when the tool itself failed;
 * - Cursor: postToolUseFailure for Shell, with the output as `error_message` and no exit code.
 * - OpenCode: tool.execute.after for bash, its exit code in `output.metadata.exit` (null when
 *   the tool killed the command: a timeout, or the user's abort).
 * Codex's PostToolUse carries the output without its exit code, and none for shell_command
 * failures at all, so Codex's failures are read from its rollout by the transcript sweep instead.
 */
export function shellFailure(agent: HookAgent, event: string, input: HookInput): ShellFailure | null {
  const command = typeof input.toolInput.command === "string" ? input.toolInput.command : "";
  if (command.trim() === "") return null;
  const failed = (exit: string, output: string): ShellFailure => ({ command, exit, output, interrupted: input.isInterrupt });
  switch (agent) {
    case "claude-code":
      return event === "PostToolUseFailure" && input.toolName === "Bash" ? failed("", input.error) : null;
    case "gemini":
      return input.toolName === "run_shell_command" ? geminiFailure(input.toolResponse, failed) : null;
    case "copilot":
      if (input.toolName !== "bash" && input.toolName !== "powershell") return null;
      return event === "postToolUseFailure" ? failed("", input.error) : copilotFailure(input.toolResponse, failed);
    case "cursor":
      if (event !== "postToolUseFailure" || input.toolName !== "Shell" || input.failureType === "permission_denied") return null;
      return failed(input.failureType === "timeout" ? "Timed out" : "", input.error);
    case "opencode":
      return input.toolName === "bash" ? openCodeFailure(input.toolResponse, failed) : null;
    case "codex":
      return null;
  }
}

type Failed = (exit: string, output: string) => ShellFailure;

const GEMINI_EXIT = /^Exit Code: (-?\d+)\s*$/m;
/** Gemini's own lines around a command's output (packages/core/src/tools/shell.ts). */
const GEMINI_FRAME = /^(?:<\/?untrusted_context>|(?:Command|Directory|Exit Code|Signal|Background PIDs|Process Group PGID): .*|Error: \(none\))\s*$/;

function geminiFailure(response: unknown, failed: Failed): ShellFailure | null {
  const fields = isRecord(response) ? response : {};
  const error = typeof fields.error === "string" ? fields.error : isRecord(fields.error) && typeof fields.error.message === "string" ? fields.error.message : "";
  const content = partsText(fields.llmContent);
  const code = Number(GEMINI_EXIT.exec(content)?.[1] ?? 0);
  if (code === 0 && error === "") return null;
  const output = content
    .split(/\r?\n/)
    .filter((line) => !GEMINI_FRAME.test(line))
    .map((line) => line.replace(/^Output: /, ""))
    .join("\n");
  return failed(code === 0 ? "" : `Exit code ${code}`, [output, error].filter((text) => text.trim() !== "").join("\n"));
}

const COPILOT_TRAILER = /<(?:exited with exit code (-?\d+)|(?:detached command with )?shellId: [^>\r\n]+ completed with exit code (-?\d+))>\s*$/;

function copilotFailure(response: unknown, failed: Failed): ShellFailure | null {
  const fields = isRecord(response) ? response : {};
  const text = typeof fields.textResultForLlm === "string" ? fields.textResultForLlm : "";
  const trailer = COPILOT_TRAILER.exec(text);
  const code = Number(trailer?.[1] ?? trailer?.[2] ?? 0);
  if (code === 0 && fields.resultType !== "failure") return null;
  return failed(code === 0 ? "" : `Exit code ${code}`, trailer ? text.slice(0, trailer.index) : text);
}

function openCodeFailure(response: unknown, failed: Failed): ShellFailure | null {
  const fields = isRecord(response) ? response : {};
  const outcome = bashOutcome(isRecord(fields.metadata) ? fields.metadata.exit : undefined, str(fields.output));
  if (!outcome.failed) return null;
  return failed(outcome.timedOut ? "Timed out" : `Exit code ${outcome.exitCode}`, outcome.body);
}

/** llmContent is a string, or Gemini's Part list (`[{text}]`). */
function partsText(value: unknown): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return "";
  return value.map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : "")).join("\n");
}
