/**
 * Claude Code auto-memory notes (YAML frontmatter with name, description and type, then a
 * body) as memd-hook reads them, and the stubs that replace notes memd already holds.
 */

/** The same frontmatter pattern as memd-hook (hooks/src/memory-note.ts): notes it saves, this reads alike. */
const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;
const NOTE_TYPES = new Set(["user", "feedback", "project", "reference"]);
const STUB_MARKER = /^<!-- memd:stub ([0-9A-HJKMNP-TV-Z]{26}) -->[ \t]*\r?$/m;

/** A note split into its frontmatter (kept byte for byte in a stub) and what memd-hook saved from it. */
export interface NoteParts {
  /** The text up to and including the closing "---" line. */
  frontmatter: string;
  body: string;
  /** The memory content memd-hook saves: the trimmed body, or the description when the body is empty. */
  content: string;
}

/**
 * Splits a note as memd-hook does. Returns null when the text has no frontmatter, an unknown
 * type or nothing to save: memd-hook never saved such a file, so it is not a note to compress.
 */
export function parseNote(text: string): NoteParts | null {
  const match = FRONTMATTER.exec(text);
  if (!match) return null;
  const fields = new Map<string, string>();
  for (const line of (match[1] as string).split(/\r?\n/)) {
    const field = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (field) fields.set((field[1] as string).toLowerCase(), unquote((field[2] as string).trim()));
  }
  if (!NOTE_TYPES.has((fields.get("type") ?? "").toLowerCase())) return null;
  const body = match[2] as string;
  const content = body.trim() || fields.get("description") || "";
  if (content === "") return null;
  return { frontmatter: text.slice(0, text.length - body.length), body, content };
}

/** The stub that replaces a note held by memory `id`: the note's frontmatter, then where it went. */
export function renderStub(frontmatter: string, id: string): string {
  const head = frontmatter.endsWith("\n") ? frontmatter : `${frontmatter}\n`;
  return `${head}Moved to memd as ${id}. Read it with \`memctl get ${id}\` or the memory_get tool.\n<!-- memd:stub ${id} -->\n`;
}

/** The memory id a stub names, or null when the text is not a stub. */
export function stubId(text: string): string | null {
  return STUB_MARKER.exec(text)?.[1] ?? null;
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}
