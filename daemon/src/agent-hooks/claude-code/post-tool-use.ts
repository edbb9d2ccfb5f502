import fs from "node:fs";
import type { RpcCaller } from "../rpc-caller.js";
import type { ShellFailure } from "../shell-failure.js";
import { SHELL_FAILURE_TAG, shellFailureTrace } from "../../capture/failure-trace.js";
import type { HookInput } from "./hook-payload.js";
import { isMemoryNotePath, parseMemoryNote } from "./memory-note.js";
import type { SaveResponseJson } from "./proto-json.js";

/** The daemon's own content limit is 64 KiB; notes beyond this are not memory notes. */
const MAX_NOTE_BYTES = 64 * 1024;

/**
 * Saves a failed shell command as a trace. Returns no context: the after-tool hooks that report
 * failures run after the fact, and their output would only arrive a turn late.
 */
export async function saveFailureTrace(failure: ShellFailure, input: HookInput, agent: string, rpc: RpcCaller): Promise<string> {
  const saved = shellFailureTrace(failure.command, failure.exit === "" ? failure.output : `${failure.exit}\n${failure.output}`, failure.interrupted);
  if (saved === null) return "";
  await rpc.call<SaveResponseJson>("Save", {
    cwd: input.cwd,
    sessionId: input.sessionId,
    sourceAgent: agent,
    content: saved.trace,
    kind: "MEMORY_KIND_TRACE",
    concepts: saved.program ? [saved.program] : [],
    tags: [SHELL_FAILURE_TAG],
  });
  return "";
}

/**
 * PostToolUse of a Write or Edit of a Claude Code memory note saves the note as a memory;
 * nothing else is saved. Returns no context: the note is already in the model's context.
 */
export async function saveMemoryNote(input: HookInput, rpc: RpcCaller): Promise<string> {
  if (input.toolName !== "Write" && input.toolName !== "Edit") return "";
  const filePath = typeof input.toolInput.file_path === "string" ? input.toolInput.file_path : "";
  if (!isMemoryNotePath(filePath)) return "";
  const text = noteText(input, filePath);
  if (text === null) return "";
  const note = parseMemoryNote(text);
  if (note === null) return "";
  await rpc.call<SaveResponseJson>("Save", {
    cwd: input.cwd,
    sessionId: input.sessionId,
    sourceAgent: "claude-code",
    ...(note.global ? { project: "global" } : {}),
    content: note.content,
    kind: note.kind,
    provenance: note.provenance,
    concepts: note.name ? [note.name] : [],
    tags: ["claude-code-memory-note"],
  });
  return "";
}

/** A Write carries the whole note; after an Edit only the file on disk has it. */
function noteText(input: HookInput, filePath: string): string | null {
  if (input.toolName === "Write" && typeof input.toolInput.content === "string") return input.toolInput.content;
  try {
    if (fs.statSync(filePath).size > MAX_NOTE_BYTES) return null;
    return fs.readFileSync(filePath, "utf8");
  } catch {
    return null;
  }
}
