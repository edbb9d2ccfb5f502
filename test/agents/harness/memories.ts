import type { AgentWorld } from "./agent-world.js";

/** A memory as `memctl list --json` prints it. */
export interface ListedMemory {
  id: string;
  content: string;
  kind: string;
  project?: string;
  status: string;
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

/** Saves a memory with the real memctl, in the world's project unless `--project` is among `args`; returns its id. */
export async function addMemory(world: AgentWorld, content: string, ...args: string[]): Promise<string> {
  const saved = await world.memctlJson<{ memory?: { id: string }; id?: string }>("add", content, ...args);
  const id = saved.memory?.id ?? saved.id;
  if (id === undefined) throw new Error(`memctl add printed no id: ${JSON.stringify(saved)}`);
  return id;
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
