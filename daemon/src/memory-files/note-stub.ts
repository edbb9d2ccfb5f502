/**
 * Claude Code auto-memory notes (YAML frontmatter with name, description and type, then a
 * body) as memd-hook reads them, and the stubs that replace notes memd already holds.
 */
import { splitMemoryNote } from "../agent-hooks/claude-code/memory-note.js";

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
  const note = splitMemoryNote(text);
  if (note === null || !NOTE_TYPES.has(note.type)) return null;
  const content = note.body.trim() || note.description;
  if (content === "") return null;
  return { frontmatter: note.frontmatter, body: note.body, content };
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
