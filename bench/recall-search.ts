import { Code, ConnectError } from "@connectrpc/connect";
import type { MemdClients } from "../clients/transport/transport.js";
import { SearchMode } from "../gen/memd/v1/memory_service_pb.js";
import type { DatasetQuery, IdMap } from "./recall-dataset.js";
import type { ModeName } from "./recall-report.js";

const SEARCH_MODES: Record<ModeName, SearchMode> = {
  keyword: SearchMode.KEYWORD,
  vector: SearchMode.VECTOR,
  hybrid: SearchMode.HYBRID,
};
const LIMIT = 10;

export type ModeRun =
  | { ok: true; ranked: Map<string, string[]>; durationsMs: number[] }
  | { ok: false; reason: string };

/**
 * Runs every query in one mode, scoped to its project (all projects when it has none), and maps
 * the results back to dataset ids. The first failing call, or hybrid answer without vectors,
 * ends the mode: a daemon that does not implement a mode yet answers every query the same way.
 */
export async function runMode(
  memory: MemdClients["memory"],
  mode: ModeName,
  queries: readonly DatasetQuery[],
  ids: IdMap,
): Promise<ModeRun> {
  const ranked = new Map<string, string[]>();
  const durationsMs: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    let results;
    let vectorsSkipped;
    try {
      ({ results, vectorsSkipped } = await memory.search({
        query: q.query,
        project: q.project ?? "",
        allProjects: q.project === null,
        limit: LIMIT,
        mode: SEARCH_MODES[mode],
      }));
    } catch (error) {
      const err = ConnectError.from(error);
      return { ok: false, reason: `${q.qid} failed with ${Code[err.code]}: ${err.rawMessage}` };
    }
    // A hybrid answer found without vectors would be scored as fused when it is keyword and graph alone.
    if (vectorsSkipped !== "") return { ok: false, reason: `${q.qid} was searched without vectors: ${vectorsSkipped}` };
    durationsMs.push(performance.now() - started);
    ranked.set(q.qid, results.map((r) => ids.toDatasetId.get(r.memory?.id ?? "") ?? r.memory?.id ?? ""));
  }
  return { ok: true, ranked, durationsMs };
}

/** A run in score.py's format: one {"qid", "ranked"} line per query. */
export function runJsonl(queries: readonly DatasetQuery[], ranked: ReadonlyMap<string, readonly string[]>): string {
  return queries.map((q) => JSON.stringify({ qid: q.qid, ranked: ranked.get(q.qid) ?? [] })).join("\n") + "\n";
}

/** What Suggest injected for each query: the pointers' dataset ids, in order. */
export type SuggestRun = { ok: true; pointers: Map<string, string[]>; durationsMs: number[] } | { ok: false; reason: string };

/**
 * Asks Suggest for every query as if it were the user's prompt, with no session (so nothing
 * is held back as already injected), and maps the pointers back to dataset ids.
 */
export async function runSuggest(memory: MemdClients["memory"], queries: readonly DatasetQuery[], ids: IdMap): Promise<SuggestRun> {
  const pointers = new Map<string, string[]>();
  const durationsMs: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    let response;
    try {
      response = await memory.suggest({ query: q.query, project: q.project ?? "" });
    } catch (error) {
      const err = ConnectError.from(error);
      return { ok: false, reason: `${q.qid} failed with ${Code[err.code]}: ${err.rawMessage}` };
    }
    durationsMs.push(performance.now() - started);
    pointers.set(q.qid, response.pointers.map((p) => ids.toDatasetId.get(p.id) ?? p.id));
  }
  return { ok: true, pointers, durationsMs };
}
