import type { MemoryRecord } from "../memory/memory.js";
import { MAX_SKILL_DESCRIPTION } from "./skill-file.js";
import { skillSlug } from "./skill-name.js";

const SUMMARY_CHARS = 300;
const DESCRIPTION_TOPICS = 4;

export type SkillSource = Pick<MemoryRecord, "id" | "content" | "kind" | "problem" | "solution" | "concepts" | "files">;

/**
 * The skill's description, which is how Claude decides to load it: what the memory says (its
 * first sentence) and when to use it (its concepts). One line, no angle brackets (Claude
 * refuses XML tags there), at most 1024 characters.
 */
export function skillDescription(memory: SkillSource): string {
  const summary = firstSentence(memory.content);
  const topics = descriptionTopics(memory);
  const text =
    memory.kind === "preference"
      ? `The user's preference: ${summary} Use when ${topics ? `working on ${topics}` : "the work touches it"}, to follow it.`
      : `How to: ${summary} Use when doing this task${topics ? ` or working on ${topics}` : ""}.`;
  return cutAtWord(text.replace(/[<>]/g, "").replace(/\s+/g, " ").trim(), MAX_SKILL_DESCRIPTION);
}

/**
 * The SKILL.md text: frontmatter with the name and the description (double-quoted, which YAML
 * reads like a JSON string), then the memory's content, problem and solution, its files, and
 * the memory it came from.
 */
export function renderSkill(memory: SkillSource, name: string, description: string): string {
  const sections = [`# ${name}`, memory.content.trim()];
  if (memory.problem.trim() !== "") sections.push(`## Problem\n\n${memory.problem.trim()}`);
  if (memory.solution.trim() !== "") sections.push(`## Solution\n\n${memory.solution.trim()}`);
  if (memory.files.length > 0) sections.push(`Files: ${memory.files.map((f) => `\`${f}\``).join(", ")}`);
  sections.push(`Graduated from memd memory ${memory.id}.`);
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${sections.join("\n\n")}\n`;
}

/** The memory's concepts or, without any, the meaningful words its skill name is made of. */
function descriptionTopics(memory: SkillSource): string {
  if (memory.concepts.length > 0) return memory.concepts.slice(0, DESCRIPTION_TOPICS).join(", ");
  const slug = skillSlug(memory);
  return slug.startsWith("memd-") ? "" : slug.split("-").join(", ");
}

function firstSentence(content: string): string {
  const flat = content.replace(/\s+/g, " ").trim();
  const end = /[.!?](\s|$)/.exec(flat);
  const sentence = end ? flat.slice(0, end.index + 1) : flat;
  const cut = cutAtWord(sentence, SUMMARY_CHARS);
  return /[.!?…]$/.test(cut) ? cut : `${cut}.`;
}

function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}
