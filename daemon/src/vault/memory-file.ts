import { createHash } from "node:crypto";
import { Document, Scalar, isAlias, isMap, isScalar, isSeq, visit, type Node } from "yaml";
import { InvalidInputError } from "../errors.js";
import { checkedFrontmatter, FileFormatError, uniqueKey } from "./frontmatter-yaml.js";
import {
  EARLIEST_TIME_MS, LATEST_TIME_MS, MEMORY_KINDS, MEMORY_STATUSES, PROVENANCES, TIERS, withinTimeRange,
  type MemoryEvent, type MemoryRecord,
} from "../memory/memory.js";
import { validateImportance, validateRange, validateUlid } from "../memory/validate.js";

/**
 * One memory as one Markdown file, the unit of the vault: YAML frontmatter between two "---"
 * lines, then the content, then (when either is set) "## Problem" and "## Solution" sections.
 * Rendering then parsing gives back every field but NOT_IN_VAULT, so the database can be rebuilt
 * from the files alone; the format is made for people too (Obsidian properties, small git diffs).
 *
 * Body escaping: a line of content, problem or solution that is `## Problem` or `## Solution`
 * after any number of backslashes gets one backslash more when rendered, and the parser takes one
 * away again; so the only unescaped heading lines are the ones the renderer wrote.
 */

/** Usage counters that change on every read: writing them would rewrite the file at each recall. */
export const NOT_IN_VAULT = ["accessCount", "lastAccessedAt"] as const satisfies readonly (keyof MemoryRecord)[];

/** What a file holds: only the keys present in it are set; `history` is null when it has none. */
export type ParsedMemoryFile =
  | { ok: true; memory: Partial<MemoryRecord>; history: MemoryEvent[] | null }
  | { ok: false; line: number; reason: string };

/** The stems (see fileStem) of the files this memory supersedes and is superseded by, for wikilinks. */
export interface MemoryFileLinks {
  supersedes: string | null;
  supersededBy: string | null;
}

type FrontmatterFields = Omit<MemoryRecord, (typeof NOT_IN_VAULT)[number] | "content" | "problem" | "solution">;

const FENCE = /^---[ \t]*$/;
const ESCAPED_HEADING = /^\\*## (Problem|Solution)$/;
const UNESCAPE_HEADING = /^\\(\\*## (?:Problem|Solution))$/;
const ACTIONS: Record<MemoryEvent["action"], true> = {
  created: true, updated: true, superseded: true, archived: true, promoted: true, rejected: true, reinforced: true, conflict: true,
};
const EVENT_ACTIONS = Object.keys(ACTIONS) as MemoryEvent["action"][];

/** The hash recorded for a file's text, to tell memd's own writes from edits made since. */
export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The file text of a memory: deterministic, LF line ends, keys sorted, no trailing spaces in the
 * frontmatter. `foreign` are the properties a person added to the file (see foreignProperties),
 * written back beside memd's own.
 */
export function renderMemoryFile(memory: MemoryRecord, history: readonly MemoryEvent[], links: MemoryFileLinks, foreign: Readonly<Record<string, unknown>> = {}): string {
  const values: Record<string, unknown> = {
    ...foreign,
    history: history.map((e) => ({ action: e.action, at: isoTime(e.at), detail: e.detail, session: e.sessionId })),
    superseded_by_link: wikilink(links.supersededBy),
    supersedes_link: wikilink(links.supersedes),
  };
  for (const [field, codec] of Object.entries(FIELDS) as [keyof FrontmatterFields, Codec<unknown>][]) {
    values[codec.key] = codec.write(memory[field]);
  }
  const sorted = Object.fromEntries(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `---\n${frontmatterYaml(sorted)}---\n${renderBody(memory)}\n`;
}

/** Reads file text back; a file a person broke gives the 1-based line and what to change. */
export function parseMemoryFile(text: string): ParsedMemoryFile {
  try {
    return readFile(text);
  } catch (error) {
    if (error instanceof FileFormatError) return { ok: false, line: error.line, reason: error.message };
    throw error;
  }
}

/** A problem with the file at a line, thrown inside the parser and returned by parseMemoryFile. */
/**
 * The properties a person added to a file's frontmatter that memd neither stores nor derives
 * (Obsidian's aliases or cssclasses, say), as plain values, so that memd rewriting the file keeps
 * them; null when the frontmatter cannot be read (then memd must not write over it). Comments and
 * the person's formatting are not kept.
 */
export function foreignProperties(text: string): Record<string, unknown> | null {
  const parts = splitFile(text);
  if (typeof parts === "string") return null;
  let doc: Document.Parsed;
  try {
    ({ doc } = checkedFrontmatter(parts.frontmatter));
  } catch (error) {
    if (error instanceof FileFormatError) return null;
    throw error;
  }
  // Two --- lines with nothing between: a new memory's file, with no properties of its own.
  if (doc.contents === null) return {};
  if (!isMap(doc.contents)) return null;
  return Object.fromEntries(Object.entries(doc.toJS() as Record<string, unknown>).filter(([key]) => !MEMD_KEYS.has(key)));
}

/** The frontmatter's YAML and the body of a file, or why it has no frontmatter. */
function splitFile(text: string): { frontmatter: string; body: string } | string {
  const lines = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n").split("\n");
  if (!FENCE.test(lines[0] ?? "")) {
    return "the file does not start with a --- line: a memory file begins with YAML frontmatter between two --- lines (for a new memory, two --- lines with nothing between are enough)";
  }
  const close = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (close === -1) return "the frontmatter opened on line 1 is never closed: add a --- line after its last key";
  return { frontmatter: lines.slice(1, close).join("\n"), body: lines.slice(close + 1).join("\n") };
}

function readFile(text: string): ParsedMemoryFile {
  const parts = splitFile(text);
  if (typeof parts === "string") throw new FileFormatError(1, parts);
  const memory = readFrontmatter(parts.frontmatter);
  const history = memory.history;
  delete memory.history;
  const body = readBody(parts.body.replace(/\n$/, ""));
  memory.content = body.content;
  // A file with an id stands for a stored memory, whose body is all of its text: sections a person
  // deleted mean an empty problem and solution. A new memory gets only what the file says.
  if (body.sections || memory.id !== undefined) Object.assign(memory, { problem: body.problem, solution: body.solution });
  const memoryId = memory.id ?? "";
  return { ok: true, memory, history: history?.map((e) => ({ memoryId, ...e })) ?? null };
}

// --- Frontmatter ----------------------------------------------------------------------------------

/** A value as the parser found it: its YAML node (aliases resolved) and the line to blame. */
interface Found {
  key: string;
  node: Node | null;
  line: number;
  lineOf: (node: Node | null | undefined) => number;
}

/** How one field is written to and read from its frontmatter key; read returns undefined for "not set". */
interface Codec<T> {
  key: string;
  write: (value: T) => unknown;
  read: (found: Found) => T | undefined;
}

type HistoryEntry = Omit<MemoryEvent, "memoryId">;

function readFrontmatter(yaml: string): Partial<MemoryRecord> & { history?: HistoryEntry[] | null } {
  const { doc, lineOf } = checkedFrontmatter(yaml);
  const out: Partial<MemoryRecord> & { history?: HistoryEntry[] | null } = {};
  if (doc.contents === null) return out;
  if (!isMap(doc.contents)) {
    throw new FileFormatError(lineOf(doc.contents), `the frontmatter is ${describe(doc.contents)}, not a mapping: write one "key: value" per line`);
  }
  const byKey = new Map<string, keyof FrontmatterFields>(
    (Object.entries(FIELDS) as [keyof FrontmatterFields, Codec<unknown>][]).map(([field, codec]) => [codec.key, field]),
  );
  const seen = new Set<string>();
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key)) continue;
    const key = uniqueKey(seen, pair.key, lineOf);
    const value = isAlias(pair.value) ? (pair.value.resolve(doc) ?? null) : (pair.value as Node | null);
    const found: Found = { key, node: value, line: lineOf(pair.key), lineOf: (node) => lineOf(node, lineOf(pair.key)) };
    if (key === "history") {
      out.history = readHistory(found, doc);
      continue;
    }
    const field = byKey.get(key);
    // Keys memd does not know (a person's own properties, the *_link wikilinks) are left alone.
    if (field === undefined) continue;
    const parsed = FIELDS[field].read(found);
    if (parsed !== undefined) Object.assign(out, { [field]: parsed });
  }
  return out;
}

function readHistory(found: Found, doc: Document.Parsed): HistoryEntry[] | null {
  if (scalarValue(found.node) === null) return null;
  if (!isSeq(found.node)) throw new FileFormatError(found.line, `history is ${describe(found.node)}: it must be a list of events`);
  return found.node.items.map((item, i) => {
    const entry = isAlias(item) ? item.resolve(doc) : (item as Node | null);
    const line = found.lineOf(entry);
    if (!isMap(entry)) throw new FileFormatError(line, `history entry ${i + 1} is ${describe(entry)}: write it as a mapping with at, action, session and detail`);
    const fields = new Map<string, Found>();
    const seen = new Set<string>();
    for (const pair of entry.items) {
      if (!isScalar(pair.key)) continue;
      uniqueKey(seen, pair.key, found.lineOf);
      const key = `history entry ${i + 1}: ${String(pair.key.value)}`;
      const node = isAlias(pair.value) ? (pair.value.resolve(doc) ?? null) : (pair.value as Node | null);
      fields.set(String(pair.key.value), { key, node, line: found.lineOf(pair.key), lineOf: found.lineOf });
    }
    const missing = (name: string): Found => ({ key: `history entry ${i + 1}: ${name}`, node: null, line, lineOf: found.lineOf });
    const atField = fields.get("at");
    if (!atField) throw new FileFormatError(line, `history entry ${i + 1} has no at: give the time of the event, such as 2026-12-01T09:31:02.118Z`);
    const actionField = fields.get("action") ?? missing("action");
    return {
      at: readTime(atField, false) as number,
      action: readEnum(EVENT_ACTIONS, "an event action")(actionField) as MemoryEvent["action"],
      sessionId: readText(fields.get("session") ?? missing("session")),
      detail: readText(fields.get("detail") ?? missing("detail")),
    };
  });
}

const text = (key: string): Codec<string> => ({ key, write: (v) => v, read: readText });
/** Text left out of the file while empty: most memories have no such value. */
const optionalText = (key: string): Codec<string> => ({ key, write: (v) => (v === "" ? undefined : v), read: readText });
const time = (key: string): Codec<number> => ({ key, write: isoTime, read: (f) => readTime(f, false) as number });
const optionalTime = (key: string): Codec<number | null> => ({ key, write: (v) => (v === null ? null : isoTime(v)), read: (f) => readTime(f, true) });
const list = (key: string): Codec<string[]> => ({ key, write: (v) => [...v], read: readList });
const id = (key: string, emptyIsUnset: boolean): Codec<string> => ({ key, write: (v) => v, read: (f) => readId(f, emptyIsUnset) });
function oneOf<T extends string>(key: string, values: readonly T[], what: string): Codec<T> {
  return { key, write: (v) => v, read: readEnum(values, what) };
}
function ranged(key: string, check: (value: number) => void): Codec<number> {
  return { key, write: (v) => v, read: (f) => readNumber(f, check) };
}

/** Every stored field but the body and NOT_IN_VAULT; the type makes leaving one out a compile error. */
const FIELDS: { [K in keyof FrontmatterFields]: Codec<FrontmatterFields[K]> } = {
  id: id("id", true),
  kind: oneOf("kind", MEMORY_KINDS, "a kind"),
  project: text("project"),
  status: oneOf("status", MEMORY_STATUSES, "a status"),
  confidence: ranged("confidence", (v) => validateRange("confidence", v, 0, 1)),
  provenance: oneOf("provenance", PROVENANCES, "a provenance"),
  tier: oneOf("tier", TIERS, "a tier"),
  importance: ranged("importance", (v) => validateImportance(v)),
  pinned: { key: "pinned", write: (v) => v, read: readBoolean },
  valence: ranged("valence", (v) => validateRange("valence", v, -1, 1)),
  intensity: ranged("intensity", (v) => validateRange("intensity", v, 0, 1)),
  createdAt: time("created"),
  updatedAt: time("updated"),
  expiresAt: optionalTime("expires"),
  reviewAt: optionalTime("review"),
  invalidAt: optionalTime("invalid"),
  supersedes: id("supersedes", false),
  supersededBy: id("superseded_by", false),
  concepts: list("concepts"),
  files: list("files"),
  tags: list("tags"),
  sessionId: text("session"),
  sourceAgent: text("source_agent"),
  archiveReason: text("archive_reason"),
  // Who else wrote it (see memory/author.ts), so that a database rebuilt from the files still marks it.
  author: optionalText("author"),
  editedBy: optionalText("edited_by"),
  viaTeam: optionalText("via_team"),
};

/** Every key memd writes: its fields, the history, and the wikilinks derived from the supersede links. */
const MEMD_KEYS: ReadonlySet<string> = new Set([...Object.values(FIELDS).map((codec) => codec.key), "history", "superseded_by_link", "supersedes_link"]);

/** A blank value (`key:` or `key: null`) reads as empty text, as a person clearing it would mean. */
function readText(found: Found): string {
  const value = scalarValue(found.node);
  if (value === null) return "";
  if (typeof value !== "string") throw new FileFormatError(found.line, `${found.key} is ${describe(found.node)}: it must be text (put it in quotes)`);
  return value;
}

function readId(found: Found, emptyIsUnset: boolean): string | undefined {
  const value = readText(found);
  if (value === "") return emptyIsUnset ? undefined : "";
  guarded(found.line, () => validateUlid(value, found.key));
  return value;
}

function readEnum<T extends string>(values: readonly T[], what: string): (found: Found) => T {
  return (found) => {
    const value = scalarValue(found.node);
    if (typeof value === "string" && (values as readonly string[]).includes(value)) return value as T;
    const got = value === null ? "empty" : typeof value === "string" ? JSON.stringify(value) : describe(found.node);
    throw new FileFormatError(found.line, `${found.key} is ${got}, not ${what} memd knows: use one of ${values.join(", ")}`);
  };
}

function readNumber(found: Found, check: (value: number) => void): number {
  const value = scalarValue(found.node);
  if (typeof value !== "number") throw new FileFormatError(found.line, `${found.key} is ${describe(found.node)}: it must be a number`);
  guarded(found.line, () => check(value));
  return value;
}

function readBoolean(found: Found): boolean {
  const value = scalarValue(found.node);
  if (typeof value !== "boolean") throw new FileFormatError(found.line, `${found.key} is ${describe(found.node)}: it must be true or false`);
  return value;
}

function readList(found: Found): string[] {
  if (scalarValue(found.node) === null) return [];
  if (!isSeq(found.node)) throw new FileFormatError(found.line, `${found.key} is ${describe(found.node)}: it must be a list (one "- entry" per line, or [] for none)`);
  return found.node.items.map((item, i) => {
    const value = isScalar(item) ? item.value : undefined;
    if (typeof value !== "string") {
      throw new FileFormatError(found.lineOf(item as Node), `${found.key} entry ${i + 1} is ${describe(item as Node)}: each entry must be text (put it in quotes)`);
    }
    return value;
  });
}

// ISO-8601 / RFC 3339 as people write it: a date alone, or a date and time with optional seconds,
// fraction and offset. A time without an offset is read as UTC, the only zone a pure parser knows.
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|z|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;
const TIME_EXAMPLE = "2026-12-01T09:31:02.118Z";

function readTime(found: Found, nullable: boolean): number | null {
  const value = scalarValue(found.node);
  if (value === null || value === "") {
    if (nullable) return null;
    throw new FileFormatError(found.line, `${found.key} is empty: give a time such as ${TIME_EXAMPLE}`);
  }
  const ms = typeof value === "string" ? parseIsoTime(value) : null;
  if (ms === null) {
    const got = typeof value === "string" ? JSON.stringify(value) : describe(found.node);
    throw new FileFormatError(found.line, `${found.key} is ${got}, not an ISO-8601 time: write it like ${TIME_EXAMPLE}${nullable ? ", or null for none" : ""}`);
  }
  if (ms < EARLIEST_TIME_MS || ms > LATEST_TIME_MS) {
    throw new FileFormatError(found.line, `${found.key} ${value} is outside the times memd can hold: give one from 0001-01-01 to 9999-12-31`);
  }
  return ms;
}

/** Milliseconds since the epoch, or null when the text is not a real ISO-8601 date or time. */
function parseIsoTime(text: string): number | null {
  const m = ISO_TIME.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second, offsetHours, offsetMins] = [1, 2, 3, 4, 5, 6, 10, 11].map((i) => Number(m[i] ?? 0)) as [
    number, number, number, number, number, number, number, number,
  ];
  const millis = Number((m[7] ?? "").slice(0, 3).padEnd(3, "0"));
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMins > 59) return null;
  const offsetMinutes = (m[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMins);
  // setUTCFullYear, since Date.UTC reads years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime() - offsetMinutes * 60_000;
}

/** Runs one of memory/validate.ts's checks, so the vault refuses what the API refuses, in its words. */
function guarded(line: number, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof InvalidInputError) throw new FileFormatError(line, error.message);
    throw error;
  }
}

function scalarValue(node: Node | null | undefined): unknown {
  if (node === null || node === undefined) return null;
  return isScalar(node) ? node.value : undefined;
}

/** What a person wrote, in words, for a reason: `a list`, `the number 3`, `the text "high"`. */
function describe(node: Node | null | undefined): string {
  if (isSeq(node)) return "a list";
  if (isMap(node)) return "a mapping";
  const value = scalarValue(node);
  if (value === null) return "empty";
  if (typeof value === "string") return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "boolean") return `${value}`;
  return "a value of another kind";
}

function isoTime(ms: number): string {
  return new Date(withinTimeRange(ms)).toISOString();
}

function wikilink(stem: string | null): string {
  return stem === null ? "" : `[[${stem}]]`;
}

/**
 * The YAML of the frontmatter, made for small diffs: one key per line, lists as block sequences,
 * nothing re-wrapped. Text with a line break is a literal block (`|`) when that reads back
 * exactly and ends no line in whitespace; otherwise a one-line JSON string, which is valid YAML.
 * Text a YAML 1.1 reader (PyYAML, older tools) would take for something else is quoted, so
 * `yes` and times stay text there too.
 */
function frontmatterYaml(values: Record<string, unknown>): string {
  const doc = new Document(values, { schema: "core", version: "1.2", compat: "yaml-1.1" });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== "string" || !node.value.includes("\n")) return;
      const literalSafe = /\S/.test(node.value) && !node.value.startsWith("\n") && !/[ \t]$/m.test(node.value);
      node.type = literalSafe ? Scalar.BLOCK_LITERAL : Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString({ lineWidth: 0, blockQuote: "literal", doubleQuotedAsJSON: true, indentSeq: true });
}

// --- Body -----------------------------------------------------------------------------------------

function renderBody(memory: Pick<MemoryRecord, "content" | "problem" | "solution">): string {
  const content = escapeHeadings(memory.content);
  if (memory.problem === "" && memory.solution === "") return content;
  return `${content}\n\n## Problem\n\n${escapeHeadings(memory.problem)}\n\n## Solution\n\n${escapeHeadings(memory.solution)}`;
}

/**
 * The body without its final line break. Sections are the last `## Problem` line before the last
 * `## Solution` line. The blank line the renderer writes around each heading is taken away when
 * present and not required when a person left it out; further blank lines belong to the text.
 */
function readBody(body: string): { content: string; problem: string; solution: string; sections: boolean } {
  const lines = body.split("\n");
  const solutionAt = lines.lastIndexOf("## Solution");
  const problemAt = solutionAt === -1 ? -1 : lines.lastIndexOf("## Problem", solutionAt);
  if (problemAt === -1) return { content: unescapeHeadings(lines), problem: "", solution: "", sections: false };
  const contentEnd = lines[problemAt - 1] === "" ? problemAt - 1 : problemAt;
  const problemStart = lines[problemAt + 1] === "" && problemAt + 1 < solutionAt ? problemAt + 2 : problemAt + 1;
  const problemEnd = lines[solutionAt - 1] === "" && solutionAt - 1 >= problemStart ? solutionAt - 1 : solutionAt;
  const solutionStart = lines[solutionAt + 1] === "" ? solutionAt + 2 : solutionAt + 1;
  return {
    content: unescapeHeadings(lines.slice(0, contentEnd)),
    problem: unescapeHeadings(lines.slice(problemStart, problemEnd)),
    solution: unescapeHeadings(lines.slice(solutionStart)),
    sections: true,
  };
}

function escapeHeadings(text: string): string {
  return text.split("\n").map((line) => (ESCAPED_HEADING.test(line) ? `\\${line}` : line)).join("\n");
}

function unescapeHeadings(lines: readonly string[]): string {
  return lines.map((line) => line.replace(UNESCAPE_HEADING, "$1")).join("\n");
}
