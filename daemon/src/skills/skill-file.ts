/**
 * Reading and checking SKILL.md files: YAML frontmatter between "---" lines, then Markdown.
 * memd has no YAML library, and needs only top-level scalars (name, description), so this
 * reads the forms skills use for them: plain, single- and double-quoted, folded (>) and
 * literal (|) blocks, and plain values continued on indented lines.
 */

/** The longest skill name and description Claude Code accepts. */
export const MAX_SKILL_NAME = 64;
export const MAX_SKILL_DESCRIPTION = 1024;

export interface SkillFile {
  /** Top-level scalar fields of the frontmatter; nested mappings come out flattened and are not to be relied on. */
  fields: Record<string, string>;
  body: string;
}

/** Parses a SKILL.md; null when it has no frontmatter block. */
export function parseSkillFile(text: string): SkillFile | null {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return null;
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === "---");
  if (end < 0) return null;
  return { fields: parseFields(lines.slice(1, end)), body: lines.slice(end + 1).join("\n").trim() };
}

function parseFields(lines: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i < lines.length; ) {
    const match = /^([A-Za-z0-9_-]+):(?:\s+(.*))?$/.exec(lines[i] as string);
    i += 1;
    if (!match) continue;
    const key = match[1] as string;
    const raw = (match[2] ?? "").trim();
    const continued: string[] = [];
    while (i < lines.length && (/^\s+\S/.test(lines[i] as string) || (lines[i] as string).trim() === "")) {
      continued.push(lines[i] as string);
      i += 1;
    }
    fields[key] = scalar(raw, continued);
  }
  return fields;
}

function scalar(raw: string, continued: readonly string[]): string {
  const block = /^([>|])[-+]?$/.exec(raw);
  if (block) {
    const indent = Math.min(...continued.filter((l) => l.trim() !== "").map((l) => (/^\s*/.exec(l) as RegExpExecArray)[0].length));
    const text = continued.map((l) => l.slice(Number.isFinite(indent) ? indent : 0).trimEnd());
    return (block[1] === "|" ? text.join("\n") : text.join(" ").replace(/\s+/g, " ")).trim();
  }
  const whole = [raw, ...continued.map((l) => l.trim())].filter((part) => part !== "").join(" ");
  if (whole.startsWith('"') && whole.endsWith('"') && whole.length >= 2) {
    try {
      return JSON.parse(whole) as string;
    } catch {
      return whole.slice(1, -1);
    }
  }
  if (whole.startsWith("'") && whole.endsWith("'") && whole.length >= 2) return whole.slice(1, -1).replace(/''/g, "'");
  // A plain scalar ends where a comment starts.
  return whole.replace(/\s+#.*$/, "");
}

/** True for a valid skill name: 1-64 lowercase letters, digits and single inner hyphens. */
export function isValidSkillName(name: string): boolean {
  return name.length >= 1 && name.length <= MAX_SKILL_NAME && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name);
}
