import type { InstallPaths } from "./locations.js";
import { type FileChange, SetupError } from "./plan.js";
import { classifyTomlLines, type TomlLine } from "./toml-lines.js";

/** Codex waits 10 s by default for an MCP server to start; leave room for a cold Node start. */
const STARTUP_TIMEOUT_SEC = 20;

/** The [mcp_servers.memd] table, one line per element. */
export function codexTable(paths: InstallPaths, memdHome: string | undefined): string[] {
  return [
    "[mcp_servers.memd]",
    `command = ${tomlString(paths.node)}`,
    `args = [${tomlString(paths.mcp)}]`,
    `startup_timeout_sec = ${STARTUP_TIMEOUT_SEC}`,
    // Inline, so that no later key can fall into an [mcp_servers.memd.env] table by accident.
    ...(memdHome === undefined ? [] : [`env = { MEMD_HOME = ${tomlString(memdHome)} }`]),
  ];
}

/** A TOML basic string. */
export function tomlString(value: string): string {
  const escaped = value.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    const short: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };
    return short[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
  return `"${escaped}"`;
}

interface TomlText {
  lines: string[];
  eol: string;
}

function splitText(text: string): TomlText {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text === "" ? [] : text.split(eol);
  // A final newline leaves an empty last element; it is not a line of the file.
  if (lines.at(-1) === "") lines.pop();
  return { lines, eol };
}

function joinText({ lines, eol }: TomlText): string {
  return lines.length === 0 ? "" : `${lines.join(eol)}${eol}`;
}

function isMemdHeader(line: TomlLine): boolean {
  return line.kind === "header" && line.keys[0] === "mcp_servers" && line.keys[1] === "memd";
}

/**
 * The line ranges (inclusive) of [mcp_servers.memd] and its subtables, each running to the
 * last key before the next other table: comments just above that table belong to it.
 */
function memdRanges(file: string, lines: readonly string[]): [number, number][] {
  const kinds = classifyTomlLines(lines);
  const ranges: [number, number][] = [];
  let table: string[] = [];
  let open: [number, number] | null = null;
  kinds.forEach((line, i) => {
    if (line.kind === "header") {
      table = line.keys;
      if (isMemdHeader(line)) {
        if (open === null) {
          open = [i, i];
          ranges.push(open);
        } else open[1] = i;
      } else open = null;
      return;
    }
    if (line.kind === "pair") {
      const rootInline = table.length === 0 && line.keys[0] === "mcp_servers" && (line.keys.length === 1 || line.keys[1] === "memd");
      const serversInline = table.length === 1 && table[0] === "mcp_servers" && line.keys[0] === "memd";
      if (rootInline || serversInline) {
        throw new SetupError(
          `${file}:${i + 1}: mcp_servers.memd is written inline there; remove it by hand (memctl setup writes a [mcp_servers.memd] table) and run again. Nothing was changed.`,
        );
      }
    }
    if (open !== null && line.kind !== "blank" && line.kind !== "comment") open[1] = i;
  });
  return ranges;
}

/** Removes lines start..end and the blank line that separated them from what came before. */
function removeLines(lines: string[], start: number, end: number): void {
  lines.splice(start, end - start + 1);
  const blank = (i: number) => i >= 0 && i < lines.length && (lines[i] as string).trim() === "";
  if (blank(start - 1) && (start >= lines.length || blank(start))) lines.splice(start - 1, 1);
  else if (start === 0 && blank(0)) lines.splice(0, 1);
}

/**
 * config.toml with [mcp_servers.memd] set to `table` (replaced where it was, or appended) or
 * removed when table is undefined. The rest of the text is not touched.
 */
function planTable(file: string, before: string | null, table: string[] | undefined): FileChange {
  const text = splitText(before ?? "");
  const ranges = memdRanges(file, text.lines);
  const lines = [...text.lines];
  for (const [start, end] of [...ranges].reverse().slice(0, table === undefined ? ranges.length : -1)) removeLines(lines, start, end);
  const first = ranges[0];
  let summary: string[] = [];
  if (table === undefined) {
    if (first) summary = ["remove [mcp_servers.memd]"];
  } else if (first) {
    const current = text.lines.slice(first[0], first[1] + 1);
    lines.splice(first[0], first[1] - first[0] + 1, ...table);
    if (ranges.length > 1 || current.join("\n") !== table.join("\n")) summary = ["update [mcp_servers.memd] in place"];
  } else {
    if (lines.length > 0 && (lines.at(-1) as string).trim() !== "") lines.push("");
    lines.push(...table);
    summary = ["add [mcp_servers.memd]"];
  }
  const after = summary.length === 0 ? before : joinText({ lines, eol: text.eol });
  return { target: "codex", path: file, before, after, summary, backup: true, mode: 0o644 };
}

/** Setup: memd's MCP server in Codex's config.toml. */
export function planCodexConfig(file: string, before: string | null, paths: InstallPaths, memdHome: string | undefined): FileChange {
  return planTable(file, before, codexTable(paths, memdHome));
}

/** Uninstall: the [mcp_servers.memd] table and its subtables gone, the rest as it was. */
export function planCodexConfigRemoval(file: string, before: string | null): FileChange {
  return planTable(file, before, undefined);
}
