import type { MemoryRecord } from "../memory/memory.js";
import type { Explanation } from "../recall/hybrid-search.js";

/** A memory a recall returned, as plain values. */
export interface RecalledForRecord {
  memory: MemoryRecord;
  /** Its one-line summary, as the answer gave it. */
  summary: string;
  associated: boolean;
  explanation: Explanation | undefined;
}

/**
 * What a recall added to the agent's context, as the injection record counts it: each memory's
 * id with its summary (depth 1), or with its whole content, problem and solution (depth 2 and 3).
 * The caller puts its own labels around them (memd-mcp's header and kinds), which this leaves out.
 */
export function recalledText(items: readonly RecalledForRecord[], full: boolean): string {
  const block = ({ memory, summary }: RecalledForRecord) =>
    full ? [memory.id, memory.content, memory.problem, memory.solution].filter((part) => part !== "").join("\n") : `${memory.id} ${summary}`;
  return items.map(block).join(full ? "\n\n" : "\n");
}

/** Why a recall gave a memory, in words: the search that found it, or that it was asked for by id or associated with a match. */
export function recallReason(item: RecalledForRecord): string {
  if (item.associated) return "associated with a match";
  const e = item.explanation;
  if (e === undefined) return "asked for by id";
  const found = [
    e.keywordRank > 0 ? `keyword rank ${e.keywordRank}` : "",
    e.vectorRank > 0 ? `vector rank ${e.vectorRank}` : "",
    e.graphPath !== "" ? `graph ${e.graphPath}` : "",
  ].filter((part) => part !== "");
  return found.length > 0 ? found.join(", ") : "matched";
}
