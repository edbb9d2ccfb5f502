import type { RpcCaller } from "../rpc-caller.js";
import type { HookInput } from "./hook-payload.js";

/** The proto-JSON answer of CaptureService.CaptureTranscript; only acceptance matters here. */
interface CaptureTranscriptResponseJson {
  accepted?: boolean;
}

/**
 * SessionEnd and PreCompact: hands the session's transcript to the daemon, which sweeps it for
 * what was not saved after it has answered. Claude Code gives all SessionEnd hooks together
 * about 1.5 s, so the hook never waits for the sweep. Prints nothing.
 */
export async function sweepTranscript(input: HookInput, rpc: RpcCaller): Promise<string> {
  if (input.transcriptPath === "") return "";
  await rpc.call<CaptureTranscriptResponseJson>(
    "CaptureTranscript",
    {
      transcriptPath: input.transcriptPath,
      sessionId: input.sessionId,
      cwd: input.cwd,
      trigger: input.eventName,
      sourceAgent: "claude-code",
      wait: false,
    },
    "memd.v1.CaptureService",
  );
  return "";
}
