import os from "node:os";
import path from "node:path";
import type { RpcCaller } from "../rpc-caller.js";
import type { HookInput } from "./hook-payload.js";

/** The proto-JSON answer of CaptureService.CaptureTranscript; only acceptance matters here. */
interface CaptureTranscriptResponseJson {
  accepted?: boolean;
}

/**
 * Session end and compaction (and Codex's Stop, its only end-of-turn event): hands the
 * session's transcript to the daemon, which sweeps it for what was not saved after it has
 * answered. Claude Code gives all SessionEnd hooks together about 1.5 s, so the hook never
 * waits for the sweep. Prints nothing.
 */
export async function sweepTranscript(input: HookInput, agent: string, trigger: string, rpc: RpcCaller): Promise<string> {
  const transcriptPath = input.transcriptPath || defaultTranscript(agent, input.sessionId);
  if (transcriptPath === "") return "";
  await rpc.call<CaptureTranscriptResponseJson>(
    "CaptureTranscript",
    { transcriptPath, sessionId: input.sessionId, cwd: input.cwd, trigger, sourceAgent: agent, wait: false },
    "memd.v1.CaptureService",
  );
  return "";
}

/**
 * Copilot CLI's sessionEnd names no transcript, which it keeps at
 * ~/.copilot/session-state/<sessionId>/events.jsonl (github/docs, copilot-cli session state).
 * A COPILOT_HOME elsewhere is not known here; its preCompact names the file itself. The file
 * need not exist yet: Copilot may write it after this hook (the daemon waits for it).
 */
function defaultTranscript(agent: string, sessionId: string): string {
  if (agent !== "copilot" || !/^[\w-]{1,128}$/.test(sessionId)) return "";
  return path.join(os.homedir(), ".copilot", "session-state", sessionId, "events.jsonl");
}
