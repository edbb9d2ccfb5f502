import { authorLabel, OTHERS_WROTE } from "../memory/author.js";
import { GLOBAL_PROJECT, type MemoryRecord } from "../memory/memory.js";

/** The default number of items; the briefing is read at the start of every session. */
export const DEFAULT_BRIEFING_ITEMS = 8;
/** How much of a memory one item shows. */
const ITEM_CHARS = 160;
/** Per-zone shares of the default eight items; a larger max_items scales them. */
const QUOTAS = { preferences: 3, decisionsAndFacts: 3, episodes: 2, reviewDue: 2, skillProposals: 2, contradictions: 2 } as const;

/** Where a briefing item comes from. */
export type BriefingZone = "preference" | "project" | "episode" | "review_due" | "skill_proposal" | "contradiction";

/** An open contradiction of the project, to settle with the user. */
export interface BriefingContradiction {
  id: number;
  newer: Pick<MemoryRecord, "id" | "content">;
  older: Pick<MemoryRecord, "id" | "content">;
  /** What they disagree on ("auth provider"). */
  subject: string;
}

/** A memory the daemon proposes as a Claude Code skill; only a person approves it. */
export interface BriefingProposal {
  memoryId: string;
  name: string;
}

export interface BriefingSources {
  project: string;
  /** The project's preferences and rules, then the global ones. */
  preferences: readonly MemoryRecord[];
  decisionsAndFacts: readonly MemoryRecord[];
  /** Newest first. */
  episodes: readonly MemoryRecord[];
  reviewDue: readonly MemoryRecord[];
  skillProposals: readonly BriefingProposal[];
  /** Newest first. */
  contradictions: readonly BriefingContradiction[];
}

export interface BriefingItem {
  zone: BriefingZone;
  /** The memory the item shows, or the memory a skill proposal is made from. */
  memoryId: string;
  /** The item as it appears in the text, without the leading "- ". */
  line: string;
  /** Another person wrote it (see memory/author.ts); its line says who. */
  byOthers: boolean;
}

export interface Briefing {
  items: BriefingItem[];
  /** The text to inject: headed groups of "- " lines; "" when there is nothing to say. */
  text: string;
  /** The memories put into the session's context (skill proposals are pointers to act on, not injected memories). */
  injectedIds: string[];
}

export interface BriefingOptions {
  maxItems: number;
  /** The text is kept within this many characters by leaving out items from the end. */
  maxChars: number;
  /** Memories already in the session's context: not repeated. */
  alreadyInjected: ReadonlySet<string>;
}

/** Pinned, core and important memories first; the sources come newest first within a rank. */
function byWeight(memories: readonly MemoryRecord[]): MemoryRecord[] {
  const weight = (m: MemoryRecord) => (m.pinned ? 100 : 0) + (m.tier === "core" ? 10 : 0) + m.importance;
  return [...memories].sort((a, b) => weight(b) - weight(a));
}

/**
 * At most `maxItems` short items (eight by default): preferences, then the project's decisions
 * and facts, then recent episodes, with up to two rules due for review and two skill proposals
 * kept at the end so they are never crowded out. Written as statements of fact, which Claude
 * Code's docs recommend over instructions.
 */
export function composeBriefing(sources: BriefingSources, options: BriefingOptions): Briefing {
  const { maxItems } = options;
  const quota = (share: number) => Math.max(1, Math.round((share * Math.max(maxItems, DEFAULT_BRIEFING_ITEMS)) / DEFAULT_BRIEFING_ITEMS));
  const seen = new Set(options.alreadyInjected);
  const take = (memories: readonly MemoryRecord[], max: number): MemoryRecord[] => {
    const out: MemoryRecord[] = [];
    for (const m of memories) {
      if (out.length >= max) break;
      if (m.content === "" || seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
    return out;
  };
  const review = take(sources.reviewDue, Math.min(quota(QUOTAS.reviewDue), maxItems));
  const proposals = sources.skillProposals
    .filter((p) => p.memoryId !== "" && p.name !== "")
    .slice(0, Math.min(quota(QUOTAS.skillProposals), maxItems - review.length));
  const contradictions = sources.contradictions.slice(0, Math.max(0, Math.min(quota(QUOTAS.contradictions), maxItems - review.length - proposals.length)));
  const room = maxItems - review.length - proposals.length - contradictions.length;
  const main = [
    ...take(byWeight(sources.preferences), quota(QUOTAS.preferences)).map((m) => memoryItem("preference", m)),
    ...take(byWeight(sources.decisionsAndFacts), quota(QUOTAS.decisionsAndFacts)).map((m) => memoryItem("project", m)),
    ...take(sources.episodes, quota(QUOTAS.episodes)).map((m) => memoryItem("episode", m)),
  ].slice(0, room);
  const items = [
    ...main,
    ...review.map((m) => memoryItem("review_due", m)),
    ...proposals.map((p): BriefingItem => ({ zone: "skill_proposal", memoryId: p.memoryId, line: `Skill proposal: ${p.name} (memctl skills approve ${p.memoryId})`, byOthers: false })),
    ...contradictions.map((c): BriefingItem => ({ zone: "contradiction", memoryId: c.newer.id, line: contradictionLine(c), byOthers: false })),
  ];
  // Items leave from the end until the text fits; an empty briefing always does.
  for (let kept = items.length; kept >= 0; kept--) {
    const text = renderBriefing(sources.project, items.slice(0, kept));
    if (text.length <= options.maxChars) {
      const shown = items.slice(0, kept);
      return { items: shown, text, injectedIds: shown.filter((item) => item.zone !== "skill_proposal" && item.zone !== "contradiction").map((item) => item.memoryId) };
    }
  }
  return { items: [], text: "", injectedIds: [] };
}

/** "fact (global): …" for the person's own memory, "fact, from bo (team core): …" for another person's. */
function memoryItem(zone: BriefingZone, m: MemoryRecord): BriefingItem {
  const author = authorLabel(m);
  const head = `${m.kind}${m.project === GLOBAL_PROJECT ? " (global)" : ""}${author === "" ? "" : `, ${author}`}`;
  return { zone, memoryId: m.id, line: `${head}: ${oneLine(m.content, ITEM_CHARS)} [${m.id}]`, byOthers: author !== "" };
}

/** The items under their headings; review items and skill proposals each get a heading that says what to do with them. */
function renderBriefing(project: string, items: readonly BriefingItem[]): string {
  if (items.length === 0) return "";
  const group = (zones: readonly BriefingZone[]) => items.filter((item) => zones.includes(item.zone)).map((item) => `- ${item.line}`);
  const lines = [`Long-term memory from memd for project ${project}:`, ...(items.some((item) => item.byOthers) ? [OTHERS_WROTE] : []), ...group(["preference", "project", "episode"])];
  const review = group(["review_due"]);
  if (review.length > 0) lines.push("Due for review (ask the user to confirm, edit or archive):", ...review);
  const proposals = group(["skill_proposal"]);
  if (proposals.length > 0) lines.push("Proven memories that could become Claude Code skills (only the user decides):", ...proposals);
  const contradictions = group(["contradiction"]);
  if (contradictions.length > 0) {
    lines.push("Memories that contradict each other (ask the user which holds, then settle: memory_settle, or memctl contradictions settle ID --keep newer|older|both):", ...contradictions);
  }
  return lines.join("\n");
}

/** "contradiction 12 (auth provider): "Auth moved to Auth0" [01J...] against "Auth is Clerk" [01J...]". */
function contradictionLine(c: BriefingContradiction): string {
  const subject = c.subject === "" ? "" : ` (${c.subject})`;
  return `contradiction ${c.id}${subject}: newer "${oneLine(c.newer.content, ITEM_CHARS / 2)}" [${c.newer.id}] against older "${oneLine(c.older.content, ITEM_CHARS / 2)}" [${c.older.id}]`;
}

/** One line of a text, at most `max` characters, cut at a word boundary. */
function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}
