import { kindLabel, type MemoryJson, oneLine, type SkillProposalJson } from "./proto-json.js";

/** Claude Code caps hook output at 10,000 characters; the briefing stays far below. */
const MAX_ITEMS = 8;
const ITEM_CHARS = 160;

export interface BriefingSources {
  project: string;
  preferences: readonly MemoryJson[];
  decisionsAndFacts: readonly MemoryJson[];
  episodes: readonly MemoryJson[];
  reviewDue: readonly MemoryJson[];
  /** Memories the daemon proposes as Claude Code skills; only a person approves them. */
  skillProposals: readonly SkillProposalJson[];
}

export interface Briefing {
  text: string;
  ids: string[];
}

/** Pinned, core and important memories first; List already returns newest first within a rank. */
function byWeight(memories: readonly MemoryJson[]): MemoryJson[] {
  const weight = (m: MemoryJson) => (m.pinned ? 100 : 0) + (m.tier === "TIER_CORE" ? 10 : 0) + (m.importance ?? 3);
  return [...memories].sort((a, b) => weight(b) - weight(a));
}

/**
 * At most eight short items: preferences, then the project's decisions and facts, then recent
 * episodes, with up to two rules due for review and two skill proposals kept at the end so they
 * are never crowded out. Written as statements of fact, which Claude Code's docs recommend over
 * instructions.
 */
export function composeBriefing(sources: BriefingSources): Briefing {
  const seen = new Set<string>();
  const take = (memories: readonly MemoryJson[], max: number): MemoryJson[] => {
    const out: MemoryJson[] = [];
    for (const m of memories) {
      if (out.length >= max) break;
      if (!m.id || !m.content || seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
    return out;
  };
  const review = take(sources.reviewDue, 2);
  const proposals = sources.skillProposals.filter((p) => p.memoryId && p.name).slice(0, 2);
  const room = MAX_ITEMS - review.length - proposals.length;
  const preferences = take(byWeight(sources.preferences), 3);
  const facts = take(byWeight(sources.decisionsAndFacts), 3);
  const episodes = take(sources.episodes, 2);
  const main = [...preferences, ...facts, ...episodes].slice(0, room);
  if (main.length + review.length + proposals.length === 0) return { text: "", ids: [] };

  const line = (m: MemoryJson) => `- ${kindLabel(m.kind)}${m.project === "global" ? " (global)" : ""}: ${oneLine(m.content ?? "", ITEM_CHARS)} [${m.id}]`;
  const lines = [`Long-term memory from memd for project ${sources.project}:`, ...main.map(line)];
  if (review.length > 0) {
    lines.push("Due for review (ask the user to confirm, edit or archive):", ...review.map(line));
  }
  if (proposals.length > 0) {
    lines.push(
      "Proven memories that could become Claude Code skills (only the user decides):",
      ...proposals.map((p) => `- Skill proposal: ${p.name} (memctl skills approve ${p.memoryId})`),
    );
  }
  return { text: lines.join("\n"), ids: [...main, ...review].map((m) => m.id as string) };
}
