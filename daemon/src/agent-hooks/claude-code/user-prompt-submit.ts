import type { RpcCaller } from "../rpc-caller.js";
import type { HookInput } from "./hook-payload.js";
import type { TextResponseJson } from "./proto-json.js";

/**
 * UserPromptSubmit: the daemon's pointers for the prompt (MemoryService.Suggest), at most
 * three, never one already given in this session. Returns the context text, or "" for none.
 */
export async function promptPointers(input: HookInput, rpc: RpcCaller): Promise<string> {
  const response = await rpc.call<TextResponseJson>("Suggest", { query: input.prompt, cwd: input.cwd, sessionId: input.sessionId });
  return response.text ?? "";
}
