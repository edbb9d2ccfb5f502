import type { ServiceImpl } from "@connectrpc/connect";
import { InjectionKind as PbInjectionKind, type InjectionService } from "../../../gen/memd/v1/injection_service_pb.js";
import type { InjectionKind, InjectionRecord } from "../injections/injection.js";
import { DAY_MS } from "../lifecycle/half-lives.js";
import { boundedCount } from "./bounded-count.js";
import { kindToPb, timeFromPb, timeToPb } from "./convert.js";
import type { ServiceDeps } from "./deps.js";
import { pageByRowId } from "./page-token.js";

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;
const MAX_SESSIONS = 500;
/** SummarizeInjections and ListInjectionSessions without `since`: the last 30 days (UTC), today included. */
const DEFAULT_DAYS = 30;

const KINDS: Record<InjectionKind, PbInjectionKind> = {
  briefing: PbInjectionKind.BRIEFING,
  pointers: PbInjectionKind.POINTERS,
  recall: PbInjectionKind.RECALL,
};

/** "" for an unset filter, so that the store leaves it out. */
const filter = (value: string) => (value.trim() === "" ? undefined : value.trim());
const orUndefined = (ms: number | null) => (ms === null ? undefined : ms);

/**
 * InjectionService: the record of what memd put into agents' contexts. Each read waits for the
 * answers already given to be stored (the recorder stores them after they have gone), so that
 * an injection an agent has received is always in what follows it.
 */
export function createInjectionService(deps: ServiceDeps): ServiceImpl<typeof InjectionService> {
  const log = deps.store.injectionLog;
  const sinceOrDefault = (since: Parameters<typeof timeFromPb>[1]) => timeFromPb("since", since) ?? Math.floor(deps.now() / DAY_MS) * DAY_MS - (DEFAULT_DAYS - 1) * DAY_MS;
  return {
    async listInjections(req) {
      const limit = boundedCount("page_size", req.pageSize, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
      await deps.recorder.settled();
      const { rows, nextPageToken } = pageByRowId(req.pageToken, limit, (beforeId, rowLimit) =>
        log.list({
          sessionId: req.sessionId === "" ? undefined : req.sessionId,
          agent: filter(req.agent),
          since: orUndefined(timeFromPb("since", req.since)),
          until: orUndefined(timeFromPb("until", req.until)),
          onlyInjected: req.onlyInjected,
          beforeId,
          limit: rowLimit,
        }),
      );
      return { injections: rows.map(injectionToPb), nextPageToken };
    },

    async listInjectionSessions(req) {
      const limit = boundedCount("page_size", req.pageSize, DEFAULT_PAGE_SIZE, MAX_SESSIONS);
      await deps.recorder.settled();
      const sessions = log.sessions({ agent: filter(req.agent), since: sinceOrDefault(req.since), limit });
      return {
        sessions: sessions.map((s) => ({
          sessionId: s.sessionId,
          agent: s.agent,
          project: s.project,
          firstTime: timeToPb(s.firstAt),
          lastTime: timeToPb(s.lastAt),
          injections: s.injections,
          tokens: BigInt(s.tokens),
          prompts: s.prompts,
          emptyPrompts: s.emptyPrompts,
        })),
      };
    },

    async summarizeInjections(req) {
      await deps.recorder.settled();
      const totals = log.totals({ since: sinceOrDefault(req.since), agent: filter(req.agent), sessionId: req.sessionId === "" ? undefined : req.sessionId });
      return { totals: totals.map((t) => ({ ...t, tokens: BigInt(t.tokens) })) };
    },
  };
}

function injectionToPb(r: InjectionRecord) {
  return {
    id: BigInt(r.id),
    time: timeToPb(r.at),
    sessionId: r.sessionId,
    agent: r.agent,
    via: r.via,
    kind: KINDS[r.kind] ?? PbInjectionKind.UNSPECIFIED,
    project: r.project,
    prompt: r.prompt,
    memories: r.memories.map((m) => ({ memoryId: m.memoryId, kind: kindToPb(m.kind), line: m.line, score: m.score, why: m.why })),
    tokens: r.tokens,
    text: r.text,
  };
}
