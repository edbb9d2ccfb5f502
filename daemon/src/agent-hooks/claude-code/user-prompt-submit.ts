import type { RpcCaller } from "../rpc-caller.js";
import type { HookInput } from "./hook-payload.js";
import type { TextResponseJson } from "./proto-json.js";

/**
 * UserPromptSubmit: the daemon's pointers for the prompt (MemoryService.Suggest), at most
 * three, never one already given in this session. The injection record names the agent and its
 * event. Returns the context text, or "" for none.
 */
export async function promptPointers(input: HookInput, agent: string, event: string, rpc: RpcCaller): Promise<string> {
  const response = await rpc.call<TextResponseJson>("Suggest", { query: input.prompt, cwd: input.cwd, sessionId: input.sessionId, sourceAgent: agent, via: event });
  return response.text ?? "";
}
