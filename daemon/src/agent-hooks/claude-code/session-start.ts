import type { RpcCaller } from "../rpc-caller.js";
import type { HookInput } from "./hook-payload.js";
import type { TextResponseJson } from "./proto-json.js";

/**
 * SessionStart: the daemon's briefing for the session (MemoryService.Brief), which also opens
 * the session as Sync does. After /clear or compaction the earlier context is gone, so the
 * daemon may brief again what it gave before. Skill proposals come only to Claude Code, whose
 * skills they would become. The injection record names the agent and its event. Returns the
 * context text, or "" for none.
 */
export async function sessionBriefing(input: HookInput, agent: string, event: string, rpc: RpcCaller): Promise<string> {
  const contextCleared = input.source === "clear" || input.source === "compact";
  const response = await rpc.call<TextResponseJson>("Brief", { sessionId: input.sessionId, cwd: input.cwd, contextCleared, sourceAgent: agent, via: event });
  return response.text ?? "";
}
