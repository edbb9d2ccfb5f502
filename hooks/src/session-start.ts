import type { DaemonCaller } from "./daemon-call.js";
import type { HookInput } from "./hook-input.js";
import type { ListResponseJson, SyncResponseJson } from "./proto-json.js";
import { composeBriefing } from "./session-briefing.js";
import type { SessionState } from "./session-state.js";

const PAGE = 20;

/**
 * SessionStart: Sync opens the session, then one round of List calls gathers the briefing.
 * After /clear or compaction the earlier context is gone, so the session's record of injected
 * pointers starts again. Returns the context text, or "" when there is nothing to say.
 */
export async function sessionBriefing(input: HookInput, daemon: DaemonCaller, session: SessionState): Promise<string> {
  if (input.source === "clear" || input.source === "compact") session.reset();
  const sync = await daemon.call<SyncResponseJson>("Sync", { sessionId: input.sessionId, cwd: input.cwd, sourceAgent: "claude-code" });
  const project = sync.project ?? "";
  const list = async (body: Record<string, unknown>) => (await daemon.call<ListResponseJson>("List", { pageSize: PAGE, ...body })).memories ?? [];
  const [globalPrefs, projectPrefs, decisionsAndFacts, episodes] = await Promise.all([
    list({ project: "global", kinds: ["MEMORY_KIND_PREFERENCE", "MEMORY_KIND_RULE"] }),
    project ? list({ project, kinds: ["MEMORY_KIND_PREFERENCE", "MEMORY_KIND_RULE"] }) : [],
    project ? list({ project, kinds: ["MEMORY_KIND_DECISION", "MEMORY_KIND_FACT"] }) : [],
    project ? list({ project, kinds: ["MEMORY_KIND_EPISODE"], pageSize: 2 }) : [],
  ]);
  const briefing = composeBriefing({
    project,
    preferences: [...projectPrefs, ...globalPrefs],
    decisionsAndFacts,
    episodes,
    reviewDue: sync.reviewDue ?? [],
    skillProposals: sync.skillProposals ?? [],
  });
  if (briefing.ids.length > 0) session.record(briefing.ids);
  return briefing.text;
}
