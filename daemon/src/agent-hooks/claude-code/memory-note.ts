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

/**
 * Reads the YAML frontmatter (name, description, type) and body of a note. Returns null when
 * it has no frontmatter or an unknown type: then it is not a note Claude Code wrote for memory.
 * Types: user and feedback are what the user said (preferences, stated by a person); project
 * is a decision when it reads like one, otherwise a fact; reference is a fact.
 */
export function parseMemoryNote(text: string): MemoryNote | null {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return null;
  const fields = new Map<string, string>();
  for (const line of (match[1] as string).split(/\r?\n/)) {
    const field = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (field) fields.set((field[1] as string).toLowerCase(), unquote((field[2] as string).trim()));
  }
  const type = (fields.get("type") ?? "").toLowerCase();
  const name = fields.get("name") ?? "";
  const body = (match[2] as string).trim();
  const content = body || fields.get("description") || "";
  // A stub left by `memctl compress` points at a memory memd already holds (marker written by
  // the daemon's memory-files/note-stub.ts): saving it would store the pointer, not knowledge.
  if (content === "" || STUB_MARKER.test(body)) return null;
  const base = { name, content };
  switch (type) {
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

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}
