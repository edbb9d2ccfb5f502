import type { InstallPaths } from "./locations.js";
import { type FileChange, SetupError } from "./file-change.js";
import { appendBlock, joinLines, removeBlock, splitLines } from "./text-lines.js";
import { classifyTomlLines, inlineTableEntries, parseOneLinePair, type TomlLine } from "./toml-lines.js";

/** Codex waits 10 s by default for an MCP server to start; leave room for a cold Node start. */
const STARTUP_TIMEOUT_SEC = 20;
const HEADER = "[mcp_servers.memd]";
const MEMD_HOME = "MEMD_HOME";

/** The keys of [mcp_servers.memd] that setup writes, with their values as TOML text. */
function ownedValues(paths: InstallPaths): [string, string][] {
  return [
    ["command", tomlString(paths.node)],
    ["args", `[${tomlString(paths.mcp)}]`],
    ["startup_timeout_sec", String(STARTUP_TIMEOUT_SEC)],
  ];
}

/** The env line of a fresh table. Inline, so that no later key can fall into an [mcp_servers.memd.env] table by accident. */
function envLine(memdHome: string): string {
  return `env = { ${MEMD_HOME} = ${tomlString(memdHome)} }`;
}

/** The [mcp_servers.memd] table a fresh install writes, one line per element. */
export function codexTable(paths: InstallPaths, memdHome: string | undefined): string[] {
  return [HEADER, ...ownedValues(paths).map(([key, value]) => `${key} = ${value}`), ...(memdHome === undefined ? [] : [envLine(memdHome)])];
}

/** A TOML basic string. */
export function tomlString(value: string): string {
  const escaped = value.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    const short: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };
    return short[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
  return `"${escaped}"`;
}

function isMemdHeader(line: TomlLine): boolean {
  return line.kind === "header" && line.keys[0] === "mcp_servers" && line.keys[1] === "memd";
}

/**
 * The line ranges (inclusive) of [mcp_servers.memd] and its subtables, each running to the
 * last key before the next other table: comments just above that table belong to it.
 */
function memdRanges(file: string, kinds: readonly TomlLine[]): [number, number][] {
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

/** A key/value pair of a table: its first line, its last (a value can span lines) and its key. */
interface Pair {
  start: number;
  end: number;
  keys: string[];
}

/** The pairs of the table whose header is at `header`, up to the next header. */
function tablePairs(kinds: readonly TomlLine[], header: number): Pair[] {
  const pairs: Pair[] = [];
  for (let i = header + 1; i < kinds.length && kinds[i]?.kind !== "header"; i += 1) {
    const line = kinds[i] as TomlLine;
    if (line.kind === "pair") pairs.push({ start: i, end: i, keys: line.keys });
    else if (line.kind === "continuation" && pairs.length > 0) (pairs.at(-1) as Pair).end = i;
  }
  return pairs;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.join("\0") === b.join("\0");
}

function findHeader(kinds: readonly TomlLine[], keys: readonly string[]): number {
  return kinds.findIndex((line) => line.kind === "header" && !line.arrayTable && sameKeys(line.keys, keys));
}

/** Line edits on the original text, applied bottom up: lines start..end replaced (end = start - 1 inserts). */
interface Edit {
  start: number;
  end: number;
  lines: string[];
}

/** A one-line pair with a new value, keeping its indentation and trailing comment. */
function withValue(lines: readonly string[], pair: Pair, key: string, value: string): string[] {
  const parsed = pair.start === pair.end ? parseOneLinePair(lines[pair.start] as string) : null;
  // A value over several lines loses what was written between them; memd owns the value.
  return parsed ? [`${parsed.indent}${key} = ${value}${parsed.trailer}`] : [`${key} = ${value}`];
}

/**
 * MEMD_HOME set (or removed, when home is undefined) wherever the user keeps memd's env: an
 * [mcp_servers.memd.env] table, dotted env.* keys, or an inline env table (memd's own form).
 * Returns the line memd adds to [mcp_servers.memd] when there is no env yet.
 */
function editMemdHome(file: string, lines: readonly string[], kinds: readonly TomlLine[], main: Pair[], home: string | undefined, edits: Edit[]): string | null {
  const value = home === undefined ? undefined : tomlString(home);
  const setPairs = (pairs: Pair[], key: string, after: number) => {
    const current = pairs.filter((p) => sameKeys(p.keys, key.split(".")));
    if (value === undefined) for (const p of current) edits.push({ start: p.start, end: p.end, lines: [] });
    else if (current.length === 0) edits.push({ start: after + 1, end: after, lines: [`${key} = ${value}`] });
    else for (const p of current) edits.push({ start: p.start, end: p.end, lines: withValue(lines, p, key, value) });
  };
  const envTable = findHeader(kinds, ["mcp_servers", "memd", "env"]);
  if (envTable >= 0) {
    setPairs(tablePairs(kinds, envTable), MEMD_HOME, envTable);
    return null;
  }
  const dotted = main.filter((p) => p.keys[0] === "env" && p.keys.length > 1);
  if (dotted.length > 0) {
    setPairs(dotted, `env.${MEMD_HOME}`, (dotted.at(-1) as Pair).end);
    return null;
  }
  const inline = main.find((p) => sameKeys(p.keys, ["env"]));
  if (!inline) return value === undefined ? null : envLine(home as string);
  const pair = inline.start === inline.end ? parseOneLinePair(lines[inline.start] as string) : null;
  const entries = pair && inlineTableEntries(pair.value);
  if (!pair || !entries) {
    throw new SetupError(`${file}:${inline.start + 1}: memd's env is not a one-line inline table; write it as env = { ... } or as an [mcp_servers.memd.env] table and run again. Nothing was changed.`);
  }
  const desired = value === undefined ? [] : [`${MEMD_HOME} = ${value}`];
  const isHome = (entry: { keys: string[] }) => sameKeys(entry.keys, [MEMD_HOME]);
  if (entries.filter(isHome).map((e) => e.text).join("\0") === desired.join("\0")) return null;
  // MEMD_HOME keeps its place among the user's entries.
  const wanted = entries.flatMap((e) => (isHome(e) ? desired.splice(0) : [e.text]));
  wanted.push(...desired);
  const table = wanted.length === 0 ? null : `{ ${wanted.join(", ")} }`;
  // An env that held only memd's MEMD_HOME goes with it, as a fresh install has none.
  edits.push({ start: inline.start, end: inline.end, lines: table === null ? [] : [`${pair.indent}env = ${table}${pair.trailer}`] });
  return null;
}

/**
 * Setup over an existing memd table: memd's own keys (command, args, startup_timeout_sec and
 * env's MEMD_HOME) set in place, every other key, subtable and comment left as it is.
 */
function updateTable(file: string, lines: string[], kinds: readonly TomlLine[], firstMemd: number, paths: InstallPaths, home: string | undefined): void {
  const edits: Edit[] = [];
  const header = findHeader(kinds, ["mcp_servers", "memd"]);
  const main = header < 0 ? [] : tablePairs(kinds, header);
  // A missing key goes after the one before it in a fresh table (or after the header).
  const inserts = new Map<number, string[]>();
  const insertAfter = (at: number, line: string) => inserts.set(at, [...(inserts.get(at) ?? []), line]);
  let anchor = header;
  for (const [key, value] of ownedValues(paths)) {
    const current = main.filter((p) => sameKeys(p.keys, [key]));
    if (current.length === 0) insertAfter(anchor, `${key} = ${value}`);
    for (const p of current) edits.push({ start: p.start, end: p.end, lines: withValue(lines, p, key, value) });
    anchor = current.at(-1)?.end ?? anchor;
  }
  const env = editMemdHome(file, lines, kinds, main, home, edits);
  if (env !== null) insertAfter(anchor, env);
  if (header < 0) {
    // Only subtables so far: the table itself goes just before the first of them.
    edits.push({ start: firstMemd, end: firstMemd - 1, lines: [HEADER, ...(inserts.get(header) ?? []), ""] });
  } else for (const [at, added] of inserts) edits.push({ start: at + 1, end: at, lines: added });
  // Bottom up; at one line, a replacement before an insertion, so it never replaces inserted lines.
  edits.sort((a, b) => b.start - a.start || b.end - b.start - (a.end - a.start));
  for (const edit of edits) lines.splice(edit.start, edit.end - edit.start + 1, ...edit.lines);
}

/**
 * config.toml with memd's server set up (appended as a fresh table, or its own keys updated in
 * place) or, when paths is undefined, [mcp_servers.memd] and its subtables removed whole. The
 * rest of the text is not touched.
 */
function planTable(file: string, before: string | null, paths: InstallPaths | undefined, home: string | undefined): FileChange {
  const text = splitLines(before ?? "");
  const kinds = classifyTomlLines(text.lines);
  const ranges = memdRanges(file, kinds);
  const lines = [...text.lines];
  let change: string | undefined;
  if (paths === undefined) {
    for (const [start, end] of [...ranges].reverse()) removeBlock(lines, start, end);
    if (ranges.length > 0) change = "remove [mcp_servers.memd]";
  } else if (ranges.length > 0) {
    updateTable(file, lines, kinds, (ranges[0] as [number, number])[0], paths, home);
    change = findHeader(kinds, ["mcp_servers", "memd"]) < 0 ? "add [mcp_servers.memd]" : "update [mcp_servers.memd] in place";
  } else {
    appendBlock(lines, codexTable(paths, home));
    change = "add [mcp_servers.memd]";
  }
  const joined = joinLines({ lines, eol: text.eol });
  const changed = change !== undefined && joined !== (before ?? "");
  // A config that held nothing but memd's table (setup created it) goes with it.
  const after = paths === undefined && joined.trim() === "" ? null : joined;
  return { target: "codex", path: file, before, after: changed ? after : before, summary: changed ? [change as string] : [], backup: true, mode: 0o644 };
}

/** Setup: memd's MCP server in Codex's config.toml. */
export function planCodexConfig(file: string, before: string | null, paths: InstallPaths, memdHome: string | undefined): FileChange {
  return planTable(file, before, paths, memdHome);
}

/** Uninstall: the [mcp_servers.memd] table and its subtables gone, the rest as it was. */
export function planCodexConfigRemoval(file: string, before: string | null): FileChange {
  return planTable(file, before, undefined, undefined);
}
