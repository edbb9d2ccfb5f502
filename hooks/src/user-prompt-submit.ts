import type { DaemonCaller } from "./daemon-call.js";
import type { HookInput } from "./hook-input.js";
import { kindLabel, oneLine, type RecallResponseJson } from "./proto-json.js";
import { promptQuery, selectPointers } from "./prompt-relevance.js";
import type { SessionState } from "./session-state.js";

const RECALL_LIMIT = 3;
const RECALL_MAX_TOKENS = 300;
const POINTER_CHARS = 160;

/**
 * UserPromptSubmit: at most three one-line pointers to memories that clearly bear on the
 * prompt, never one already given in this session. Returns the context text, or "" for none.
 */
export async function promptPointers(input: HookInput, daemon: DaemonCaller, session: SessionState): Promise<string> {
  const query = promptQuery(input.prompt);
  if (query === null) return "";
  const response = await daemon.call<RecallResponseJson>("Recall", {
    query,
    cwd: input.cwd,
    depth: 1,
    limit: RECALL_LIMIT,
    maxTokens: RECALL_MAX_TOKENS,
    explain: true,
  });
  const pointers = selectPointers(query, response.memories ?? [], session.injected());
  if (pointers.length === 0) return "";
  session.record(pointers.map((m) => m.id as string));
  const lines = pointers.map((m) => `- ${m.id} (${kindLabel(m.kind)}): ${oneLine(m.summary ?? "", POINTER_CHARS)}`);
  return ["memd has memories that bear on this prompt (full text: memd recall with these ids at depth 2):", ...lines].join("\n");
}
