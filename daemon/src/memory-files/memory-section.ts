import { type Authorship, withAuthor } from "../memory/author.js";
import type { MemoryKind } from "../memory/memory.js";
import { summarize } from "../recall/recall-budget.js";

/**
 * memd's section in a Markdown file: everything from the begin marker line through the end
 * marker line. memd writes only inside it; every byte outside it belongs to the user (or to
 * Claude Code, for its auto-memory index) and is never changed.
 */
export const SECTION_BEGIN = "<!-- memd:begin (generated; edits here are overwritten) -->";
export const SECTION_END = "<!-- memd:end -->";
const BEGIN_LINE = /^<!-- memd:begin\b.*-->[ \t]*\r?$/m;
const END_LINE = /^<!-- memd:end -->[ \t]*\r?$/m;
const TITLE_LINE = /^# [^\n]*\n/;

/** One memory as the section lists it, with who else wrote it (an agent reads this file as its instructions). */
export interface SectionEntry extends Authorship {
  id: string;
  kind: MemoryKind;
  content: string;
}

/** The section's text, markers included, ending with a newline. */
export function renderSection(project: string, entries: readonly SectionEntry[]): string {
  const lines = [SECTION_BEGIN, `## Top memories in memd (${inline(project)})`, ""];
  if (entries.length === 0) lines.push("No memories yet.");
  for (const entry of entries) lines.push(`- \`${entry.id}\` ${entry.kind}: ${inline(withAuthor(summarize(entry.content), entry))}`);
  lines.push("", "Full text: `memctl get <id>` or the memory_get tool.", SECTION_END);
  return `${lines.join("\n")}\n`;
}

/** Where the section sits in a text: [start, end) offsets, end just past the end marker's line. */
export interface SectionSpan {
  start: number;
  end: number;
}

/** Markers that cannot be matched up: memd leaves such a file alone and says why. */
export class BrokenSectionError extends Error {
  override readonly name = "BrokenSectionError";
}

/** The section's span, or null when the text has none; throws BrokenSectionError on unmatched or repeated markers. */
export function findSection(text: string): SectionSpan | null {
  const begin = BEGIN_LINE.exec(text);
  const end = END_LINE.exec(text);
  if (!begin && !end) return null;
  if (!begin || !end || end.index < begin.index) {
    throw new BrokenSectionError("the file has a memd:begin or memd:end marker without its partner: fix or delete the markers by hand");
  }
  const endLine = lineEnd(text, end.index);
  if (BEGIN_LINE.test(text.slice(endLine)) || END_LINE.test(text.slice(endLine))) {
    throw new BrokenSectionError("the file has more than one memd section: delete all but one by hand");
  }
  return { start: begin.index, end: endLine };
}

/**
 * The text with `section` in place of the existing section, or inserted when there is none: at
 * the top (Claude Code loads only the first 200 lines of MEMORY.md), after a leading "# " title
 * line, separated by one blank line. A null section removes it together with that blank line,
 * so inserting then removing gives back the original bytes.
 */
export function replaceSection(text: string, section: string | null): string {
  const span = findSection(text);
  if (span) {
    if (section !== null) return text.slice(0, span.start) + section + text.slice(span.end);
    return removeSpan(text, span);
  }
  if (section === null) return text;
  if (text === "") return section;
  const title = TITLE_LINE.exec(text);
  if (title) return `${title[0]}\n${section}${text.slice(title[0].length)}`;
  return `${section}\n${text}`;
}

function removeSpan(text: string, span: SectionSpan): string {
  const before = text.slice(0, span.start);
  const after = text.slice(span.end);
  // The blank line that insertion added: after a section at the top, before one further down.
  if (before === "") return after.startsWith("\n") ? after.slice(1) : after;
  if (before.endsWith("\n\n")) return before.slice(0, -1) + after;
  return before + after;
}

function lineEnd(text: string, from: number): number {
  const newline = text.indexOf("\n", from);
  return newline === -1 ? text.length : newline + 1;
}

/** One line of text that cannot open or close an HTML comment, so it can never fake a marker. */
function inline(text: string): string {
  return text.replace(/\s+/g, " ").replace(/<!--/g, "<!‐‐").replace(/-->/g, "‐‐>").trim();
}
