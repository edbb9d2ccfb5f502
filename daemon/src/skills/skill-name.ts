import type { MemoryRecord } from "../memory/memory.js";
import { MAX_SKILL_NAME } from "./skill-file.js";
import { isStopword, words } from "./skill-tokens.js";

const SLUG_WORDS = 4;
// Claude's skill names may not contain these reserved words.
const RESERVED = new Set(["anthropic", "claude"]);

/**
 * A skill name from a memory: its first four meaningful words (stopwords and reserved words
 * left out), topped up from its concepts when the content has fewer, joined by hyphens and
 * cut to 64 characters at a word; "memd-<kind>" when nothing usable is left.
 */
export function skillSlug(memory: Pick<MemoryRecord, "content" | "concepts" | "kind">): string {
  const chosen: string[] = [];
  const add = (text: string) => {
    for (const word of words(text)) {
      if (chosen.length >= SLUG_WORDS) return;
      if (isStopword(word) || RESERVED.has(word) || chosen.includes(word)) continue;
      chosen.push(word);
    }
  };
  add(memory.content);
  for (const concept of memory.concepts) add(concept);
  let slug = "";
  for (const word of chosen) {
    const next = slug === "" ? word.slice(0, MAX_SKILL_NAME) : `${slug}-${word}`;
    if (next.length > MAX_SKILL_NAME) break;
    slug = next;
  }
  return slug === "" ? `memd-${memory.kind}` : slug;
}

/**
 * `base` if no folder in `taken` has it, else `base-2`, `base-3`, ... (the base shortened when
 * the suffix would pass 64 characters).
 */
export function uniqueSkillName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const stem = base.slice(0, MAX_SKILL_NAME - suffix.length).replace(/-+$/, "");
    const name = `${stem}${suffix}`;
    if (!taken.has(name)) return name;
  }
}
