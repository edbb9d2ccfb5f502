import fs from "node:fs";
import { redact } from "../../redact/redact-secrets.js";
import type { RpcCaller } from "../rpc-caller.js";
import { commandProgram, failureTrace } from "./failure-trace.js";
import type { HookInput } from "./hook-payload.js";
import { isMemoryNotePath, parseMemoryNote } from "./memory-note.js";
import type { SaveResponseJson } from "./proto-json.js";

/** The daemon's own content limit is 64 KiB; notes beyond this are not memory notes. */
const MAX_NOTE_BYTES = 64 * 1024;

/**
 * PostToolUse (Write/Edit of a Claude Code memory note) saves the note as a memory;
 * PostToolUseFailure (Bash) saves the failure as a trace. Nothing else is saved. Returns no
 * context: these hooks run asynchronously and their output would only arrive a turn late.
 */
export async function saveFromTool(input: HookInput, rpc: RpcCaller): Promise<string> {
  const common = { cwd: input.cwd, sessionId: input.sessionId, sourceAgent: "claude-code" };
  if (input.eventName === "PostToolUseFailure") {
    if (input.toolName !== "Bash") return "";
    // A failing command is where credentials appear (`curl -u admin:...`). Save redacts what it
    // stores, but the trace is cut to length first, and a cut secret may no longer be
    // recognisable: redact before cutting.
    const command = redact(typeof input.toolInput.command === "string" ? input.toolInput.command : "");
    const trace = failureTrace(command, redact(input.error), input.isInterrupt);
    if (trace === null) return "";
    const program = commandProgram(command);
    await rpc.call<SaveResponseJson>("Save", {
      ...common,
      content: trace,
      kind: "MEMORY_KIND_TRACE",
      concepts: program ? [program] : [],
      tags: ["bash-failure"],
    });
    return "";
  }
  if (input.toolName !== "Write" && input.toolName !== "Edit") return "";
  const filePath = typeof input.toolInput.file_path === "string" ? input.toolInput.file_path : "";
  if (!isMemoryNotePath(filePath)) return "";
  const text = noteText(input, filePath);
  if (text === null) return "";
  const note = parseMemoryNote(text);
  if (note === null) return "";
  await rpc.call<SaveResponseJson>("Save", {
    ...common,
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
