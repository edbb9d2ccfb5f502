/** The proto-JSON shapes the hooks read from the daemon; every field may be absent when it is the default. */

export interface MemoryJson {
  id?: string;
  content?: string;
  kind?: string;
  project?: string;
  pinned?: boolean;
  tier?: string;
  importance?: number;
}

export interface ExplanationJson {
  keywordRank?: number;
  graphPath?: string;
}

export interface RecalledMemoryJson {
  id?: string;
  summary?: string;
  kind?: string;
  score?: number;
  associated?: boolean;
  explanation?: ExplanationJson;
}

export interface RecallResponseJson {
  memories?: RecalledMemoryJson[];
}

export interface SkillProposalJson {
  memoryId?: string;
  name?: string;
}

export interface SyncResponseJson {
  project?: string;
  reviewDue?: MemoryJson[];
  skillProposals?: SkillProposalJson[];
}

export interface ListResponseJson {
  memories?: MemoryJson[];
}

export interface SaveResponseJson {
  memory?: MemoryJson;
  mergedInto?: string;
}

/** "MEMORY_KIND_PREFERENCE" -> "preference". */
export function kindLabel(kind: string | undefined): string {
  return (kind ?? "MEMORY_KIND_FACT").replace(/^MEMORY_KIND_/, "").toLowerCase();
}

/** One line of a memory, at most `max` characters, cut at a word boundary. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}
