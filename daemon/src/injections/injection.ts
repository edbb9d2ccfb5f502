import type { MemoryKind } from "../memory/memory.js";

/** Which RPC put text into an agent's context: Brief, Suggest or Recall. */
export type InjectionKind = "briefing" | "pointers" | "recall";

/** One memory an injection carried, with the line the agent was shown and why it was given. */
export interface InjectedMemory {
  memoryId: string;
  kind: MemoryKind;
  line: string;
  /** A pointer's or a recall's score; 0 for a briefing's items, which are not ranked. */
  score: number;
  why: string;
}

/** What a service knows about one answer it gave: the text it added and the memories in it. */
export interface InjectionEntry {
  at: number;
  sessionId: string;
  agent: string;
  /** The hook event or tool that asked (SessionStart, memory_search), or the RPC's name. */
  via: string;
  kind: InjectionKind;
  project: string;
  /** The prompt or query, as the caller sent it: the recorder redacts and bounds it. */
  prompt: string;
  memories: InjectedMemory[];
  /** The whole text added; "" when nothing was. */
  text: string;
}

/** An injection as the record keeps it: the prompt redacted and bounded, the text bounded, its tokens counted. */
export interface NewInjection extends InjectionEntry {
  tokens: number;
}

/** A stored injection. */
export interface InjectionRecord extends NewInjection {
  id: number;
}

/** One session's share of the record. */
export interface InjectionSessionSummary {
  sessionId: string;
  agent: string;
  project: string;
  firstAt: number;
  lastAt: number;
  /** Records that added something (tokens > 0). */
  injections: number;
  tokens: number;
  prompts: number;
  emptyPrompts: number;
}

/** One UTC day's record for one agent. */
export interface InjectionDayTotals {
  /** YYYY-MM-DD, UTC. */
  day: string;
  agent: string;
  injections: number;
  tokens: number;
  briefings: number;
  prompts: number;
  emptyPrompts: number;
  recalls: number;
}

/** How often a memory was injected, and where last. */
export interface InjectionTally {
  memoryId: string;
  count: number;
  lastAt: number;
  lastSessionId: string;
  lastAgent: string;
}
