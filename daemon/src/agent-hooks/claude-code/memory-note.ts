import { parse } from "yaml";

/** A Claude Code auto-memory note turned into the fields of a Save request. */
export interface MemoryNote {
  name: string;
  kind: string;
  provenance: string;
  /** True for `type: user`: it describes the user, not this project. */
  global: boolean;
  content: string;
}

/**
 * True for Claude Code's own memory notes: `~/.claude/projects/<project>/memory/*.md` (the
 * config dir may be moved, so any `projects/<x>/memory/` counts) or `<repo>/.claude/memory/*.md`.
 * The MEMORY.md index is not a note.
 */
export function isMemoryNotePath(filePath: string): boolean {
  const parts = filePath.split(/[\\/]/);
  const name = parts.at(-1) ?? "";
  if (!/\.md$/i.test(name) || name.toUpperCase() === "MEMORY.MD") return false;
  if (parts.at(-2) !== "memory") return false;
  return parts.at(-3) === ".claude" || parts.at(-4) === "projects";
}

const STUB_MARKER = /^<!-- memd:stub [0-9A-HJKMNP-TV-Z]{26} -->/m;

const DECISION_WORDS = /\b(decided|decision|chose|chosen|go with|went with|instead of|rather than|switched to|we use|we picked)\b/i;

const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** A note's frontmatter fields memd reads, its frontmatter text as written, and its body. */
export interface NoteFrontmatter {
  name: string;
  description: string;
  /** user, feedback, project or reference, lower-cased; "" when absent. */
  type: string;
  /** The text up to and including the closing "---" line. */
  frontmatter: string;
  body: string;
}

/**
 * Splits a note into its YAML frontmatter and body; null when it has none. Claude Code writes
 * `type` at the top level, and since 2.1.332 rewrites a note it edits with the type nested
 * under `metadata` (with node_type, originSessionId, modified): either counts.
 */
export function splitMemoryNote(text: string): NoteFrontmatter | null {
  const match = FRONTMATTER.exec(text);
  if (!match) return null;
  let fields: unknown;
  try {
    fields = parse(match[1] as string);
  } catch {
    return null;
  }
  const top = isRecord(fields) ? fields : {};
  const metadata = isRecord(top.metadata) ? top.metadata : {};
  const scalar = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  const body = match[2] as string;
  return {
    name: scalar(top.name),
    description: scalar(top.description),
    type: (scalar(top.type) || scalar(metadata.type)).toLowerCase(),
    frontmatter: text.slice(0, text.length - body.length),
    body,
  };
}

/**
 * Reads a note's frontmatter (name, description, type) and body. Returns null when it has no
 * frontmatter or an unknown type: then it is not a note Claude Code wrote for memory.
 * Types: user and feedback are what the user said (preferences, stated by a person); project
 * is a decision when it reads like one, otherwise a fact; reference is a fact.
 */
export function parseMemoryNote(text: string): MemoryNote | null {
  const note = splitMemoryNote(text);
  if (note === null) return null;
  const body = note.body.trim();
  const content = body || note.description;
  // A stub left by `memctl compress` points at a memory memd already holds (marker written by
  // the daemon's memory-files/note-stub.ts): saving it would store the pointer, not knowledge.
  if (content === "" || STUB_MARKER.test(body)) return null;
  const base = { name: note.name, content };
  switch (note.type) {
    case "user":
      return { ...base, kind: "MEMORY_KIND_PREFERENCE", provenance: "PROVENANCE_HUMAN", global: true };
    case "feedback":
      return { ...base, kind: "MEMORY_KIND_PREFERENCE", provenance: "PROVENANCE_HUMAN", global: false };
    case "project":
      return { ...base, kind: DECISION_WORDS.test(content) ? "MEMORY_KIND_DECISION" : "MEMORY_KIND_FACT", provenance: "PROVENANCE_SAVE", global: false };
    case "reference":
      return { ...base, kind: "MEMORY_KIND_FACT", provenance: "PROVENANCE_SAVE", global: false };
    default:
      return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
