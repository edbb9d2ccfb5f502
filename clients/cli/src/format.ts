import { toJson } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Memory, MemoryKindSchema, MemorySchema, MemoryStatusSchema } from "../../../gen/memd/v1/memory_pb.js";
import { EmbedderModelState, EmbedderModelStateSchema, type EmbedderStatus, EmbedderStateSchema, type ScoreExplanation } from "../../../gen/memd/v1/memory_service_pb.js";
import { enumName } from "./enums.js";

/** Human-readable output; --json output goes through the proto JSON mapping instead. */

export function memoryJson(memory: Memory): unknown {
  return toJson(MemorySchema, memory);
}

export function formatMemoryLine(memory: Memory, score?: number): string {
  const status = memory.status === 1 ? "" : ` (${enumName(MemoryStatusSchema, memory.status)})`;
  const scored = score === undefined ? "" : ` score ${score.toFixed(2)}`;
  const others = [memory.author && `from ${memory.author}`, memory.editedBy && `edited by ${memory.editedBy}`, memory.viaTeam && `team ${memory.viaTeam}`].filter(Boolean);
  const head = `${memory.id}  ${enumName(MemoryKindSchema, memory.kind)}  ${memory.project}${status}${others.length > 0 ? `  (${others.join(", ")})` : ""}${scored}`;
  return `${head}\n  ${oneLine(memory.content, 200)}`;
}

export function formatMemoryFull(memory: Memory): string {
  const lines: [string, string][] = [
    ["id", memory.id],
    ["kind", enumName(MemoryKindSchema, memory.kind)],
    ["project", memory.project],
    ["status", enumName(MemoryStatusSchema, memory.status)],
    ["from", memory.author],
    ["edited by", memory.editedBy],
    ["via team", memory.viaTeam],
    ["content", memory.content],
    ["problem", memory.problem],
    ["solution", memory.solution],
    ["concepts", memory.concepts.join(", ")],
    ["files", memory.files.join(", ")],
    ["tags", memory.tags.join(", ")],
    ["confidence", memory.confidence.toFixed(2)],
    ["importance", String(memory.importance)],
    ["pinned", memory.pinned ? "yes" : ""],
    ["session", memory.sessionId],
    ["agent", memory.sourceAgent],
    ["created", memory.createTime ? timestampDate(memory.createTime).toISOString() : ""],
    ["updated", memory.updateTime ? timestampDate(memory.updateTime).toISOString() : ""],
    ["expires", memory.expireTime ? timestampDate(memory.expireTime).toISOString() : ""],
    ["review", memory.reviewTime ? timestampDate(memory.reviewTime).toISOString() : ""],
    ["supersedes", memory.supersedes],
    ["superseded by", memory.supersededBy],
    ["archived because", memory.archiveReason],
  ];
  return lines
    .filter(([, value]) => value !== "")
    .map(([label, value]) => `${`${label}:`.padEnd(18)}${value.replace(/\n/g, `\n${" ".repeat(18)}`)}`)
    .join("\n");
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function formatEmbedder(e: EmbedderStatus): string {
  if (e.provider === "none") return `embedder: none (${e.reason})`;
  const lines = [
    `embedder: ${e.provider} ${e.model} (${e.dimensions} dims), ${enumName(EmbedderStateSchema, e.state)}${e.reindexing ? ", reindexing" : ""}`,
    `  why: ${e.reason}`,
    `  queue: ${e.queueDepth} waiting to be embedded`,
  ];
  if (e.modelState !== EmbedderModelState.UNSPECIFIED) lines.push(`  model: ${enumName(EmbedderModelStateSchema, e.modelState)}`);
  if (e.loadError) lines.push(`  load error (${e.failedLoads} in a row, tried again soon): ${e.loadError}`);
  if (e.lastError) lines.push(`  last error: ${e.lastError}`);
  return lines.join("\n");
}

export function formatExplanation(e: ScoreExplanation): string {
  const parts = [
    e.keywordRank ? `keyword #${e.keywordRank} (bm25 ${e.keywordScore.toFixed(2)})` : "keyword -",
    e.vectorRank ? `vector #${e.vectorRank} (cos ${e.vectorSimilarity.toFixed(2)})` : "vector -",
    e.graphPath ? `graph ${e.graphPath}` : "graph -",
  ];
  if (e.context > 0) parts.push(`context +${e.context.toFixed(4)} from its session neighbours`);
  const lifecycle = `relevance ${e.relevance.toFixed(4)} x decay ${e.decay.toFixed(2)} x frequency ${e.frequency.toFixed(2)} x confidence ${e.confidence.toFixed(2)}`;
  return `  why: ${parts.join(", ")}\n       ${lifecycle}`;
}

/** What a search that ran without vectors says about its results (SearchResponse.vectors_skipped). */
export function vectorsSkippedNote(reason: string): string {
  return `searched without vectors (${reason}); these results come from keywords and the entity graph alone`;
}
