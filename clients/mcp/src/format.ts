import { toJson } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { type Memory, MemoryKindSchema, MemorySchema, MemoryStatus, MemoryStatusSchema } from "../../../gen/memd/v1/memory_pb.js";
import { enumName } from "./enum-names.js";

/** Text for a model to read: ids first, one line per memory, labels only where a value exists. */

export function memoryJson(memory: Memory): string {
  return JSON.stringify(toJson(MemorySchema, memory), null, 2);
}

/** `ID [kind, project, status] first line of the content` — status only when not active. */
export function memoryLine(memory: Memory, extra = ""): string {
  return `${memory.id} [${labels(memory)}]${extra} ${oneLine(memory.content, 200)}`;
}

export function memoryFull(memory: Memory): string {
  const rows: [string, string][] = [
    ["problem", memory.problem],
    ["solution", memory.solution],
    ["concepts", memory.concepts.join(", ")],
    ["files", memory.files.join(", ")],
    ["tags", memory.tags.join(", ")],
    ["confidence", memory.confidence ? memory.confidence.toFixed(2) : ""],
    ["importance", memory.importance ? String(memory.importance) : ""],
    ["pinned", memory.pinned ? "yes" : ""],
    ["session", memory.sessionId],
    ["agent", memory.sourceAgent],
    ["created", isoTime(memory.createTime)],
    ["updated", isoTime(memory.updateTime)],
    ["expires", isoTime(memory.expireTime)],
    ["supersedes", memory.supersedes],
    ["superseded by", memory.supersededBy],
    ["archived because", memory.archiveReason],
  ];
  const details = rows.filter(([, value]) => value !== "").map(([label, value]) => `${label}: ${value}`);
  return [`${memory.id} [${labels(memory)}]`, memory.content, ...details].join("\n");
}

/** "kind, project[, status][, from bo][, edited by cy][, team core]": another person's memory always says whose it is. */
export function labels(memory: Memory): string {
  const parts = [enumName(MemoryKindSchema, memory.kind), memory.project];
  if (memory.status !== MemoryStatus.ACTIVE) parts.push(enumName(MemoryStatusSchema, memory.status));
  if (memory.author !== "") parts.push(`from ${memory.author}`);
  if (memory.editedBy !== "") parts.push(`edited by ${memory.editedBy}`);
  if (memory.viaTeam !== "") parts.push(`team ${memory.viaTeam}`);
  return parts.join(", ");
}

export function isoTime(time: Timestamp | undefined): string {
  return time ? timestampDate(time).toISOString() : "";
}

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The memory a response must carry; a response without one is a daemon bug, said plainly. */
export function required(memory: Memory | undefined): Memory {
  if (!memory) throw new Error("the daemon answered without a memory");
  return memory;
}
