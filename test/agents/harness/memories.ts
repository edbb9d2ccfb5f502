import fs from "node:fs";
import path from "node:path";
import type { MemoryKind } from "../../../gen/memd/v1/memory_pb.js";
import { provenMemoryLine } from "../../helpers/proven-memory.js";
import { until } from "../../helpers/until.js";
import type { AgentWorld } from "./agent-world.js";

/** A memory as `memctl list --json` prints it. */
export interface ListedMemory {
  id: string;
  content: string;
  kind: string;
  project?: string;
  status: string;
  archiveReason?: string;
  provenance?: string;
  sourceAgent?: string;
  sessionId?: string;
  concepts?: string[];
  tags?: string[];
}

/** Every active and staged memory memd holds, newest first, read with the real memctl. */
export async function storedMemories(world: AgentWorld): Promise<ListedMemory[]> {
  const listed = await world.memctlJson<{ memories: ListedMemory[] }>("list", "--status", "active,staged", "--limit", "1000");
  return listed.memories;
}

/**
 * Every memory memd holds in any status, once the embedding queue is empty: by then every
 * near-duplicate merge (which runs as each vector is stored) has happened.
 */
export async function settledMemories(world: AgentWorld): Promise<ListedMemory[]> {
  await until(
    () => world.memctlJson<{ embedder?: { queueDepth?: string } }>("health"),
    (health) => Number(health.embedder?.queueDepth ?? 0) === 0,
  );
  const listed = await world.memctlJson<{ memories: ListedMemory[] }>("list", "--status", "active,staged,archived,superseded", "--limit", "1000");
  return listed.memories;
}

/** Saves a memory with the real memctl, in the world's project unless `--project` is among `args`; returns its id. */
export async function addMemory(world: AgentWorld, content: string, ...args: string[]): Promise<string> {
  const saved = await world.memctlJson<{ memory?: { id: string }; id?: string }>("add", content, ...args);
  const id = saved.memory?.id ?? saved.id;
  if (id === undefined) throw new Error(`memctl add printed no id: ${JSON.stringify(saved)}`);
  return id;
}

/**
 * Gives memd, with the real `memctl import`, a memory of the world's project that a person stated
 * ten days ago and that was read back since (see provenMemory): one skill graduation calls
 * proven. Returns its id.
 */
export async function importProvenMemory(world: AgentWorld, content: string, kind: MemoryKind): Promise<string> {
  const line = provenMemoryLine({ content, kind, project: path.basename(world.project) });
  const file = path.join(world.home, "tmp", "proven-memory.jsonl");
  fs.writeFileSync(file, `${line}\n`);
  const imported = await world.memctlJson<{ created: number }>("import", file);
  if (imported.created !== 1) throw new Error(`memctl import created ${imported.created} memories, not 1`);
  return (JSON.parse(line) as { id: string }).id;
}

/** An injection as `memctl injections --json` prints it (proto JSON: empty fields left out). */
export interface RecordedInjection {
  kind: string;
  via: string;
  agent?: string;
  sessionId?: string;
  tokens?: number;
  text?: string;
  memories?: { memoryId: string; line: string }[];
}

/** Every injection memd recorded (the newest 1,000), read with the real memctl. */
export async function recordedInjections(world: AgentWorld): Promise<RecordedInjection[]> {
  return (await world.memctlJson<{ injections: RecordedInjection[] }>("injections", "--limit", "1000")).injections;
}
