import { type FileChange, SetupError } from "./file-change.js";
import { appendBlock, joinLines, removeBlock, splitLines } from "./text-lines.js";

/**
 * Markers of their own: the MEMORY.md sync owns "memd:begin"/"memd:end" sections, and a user may
 * point both at one file.
 */
export const AGENTS_BEGIN = "<!-- memd:agents:begin (written by memctl setup: setup replaces this section, memctl uninstall removes it) -->";
export const AGENTS_END = "<!-- memd:agents:end -->";
const BEGIN_PATTERN = /^<!-- memd:agents:begin\b.*-->\s*$/;
const END_PATTERN = /^<!-- memd:agents:end -->\s*$/;

/**
 * The section's text from the daemon's two prompts: the memctl prompt whole, then the curl
 * examples from the curl prompt (what follows the rules both share), so that an agent without
 * memctl on its PATH can still reach memd.
 */
export function agentsSectionBody(cliPrompt: string, curlPrompt: string): string {
  let shared = 0;
  while (shared < cliPrompt.length && cliPrompt[shared] === curlPrompt[shared]) shared += 1;
  const heading = cliPrompt.lastIndexOf("\n## ", shared - 1);
  const curlExamples = heading < 0 ? "" : curlPrompt.slice(heading + 1).trim();
  return curlExamples === "" ? cliPrompt.trim() : `${cliPrompt.trim()}\n\n${curlExamples}`;
}

/**
 * The socket path written as $HOME/... when it lies in the home directory: an AGENTS.md is
 * usually committed, and other people's memd listens in their own home.
 */
export function portableSocketPath(body: string, socketPath: string, home: string): string {
  if (!socketPath.startsWith(`${home}/`)) return body;
  return body.split(socketPath).join(`$HOME${socketPath.slice(home.length)}`);
}

/** The begin and end line indexes of the memd section, or null when there is none. */
function sectionRange(file: string, lines: readonly string[]): [number, number] | null {
  const begin = lines.findIndex((line) => BEGIN_PATTERN.test(line));
  if (begin < 0) return null;
  const end = lines.findIndex((line, i) => i > begin && END_PATTERN.test(line));
  if (end < 0) throw new SetupError(`${file}:${begin + 1} opens a memd section that never ends (no "${AGENTS_END}" line); fix it and run again. Nothing was changed.`);
  return [begin, end];
}

/** Setup: the memd section written or replaced in place; every other line kept. */
export function planAgentsMd(file: string, before: string | null, body: string): FileChange {
  const text = splitLines(before ?? "");
  const lines = text.lines;
  const section = [AGENTS_BEGIN, ...body.split("\n"), AGENTS_END];
  const range = sectionRange(file, lines);
  let summary: string[] = [];
  if (range) {
    const current = lines.slice(range[0], range[1] + 1);
    if (current.join("\n") !== section.join("\n")) summary = ["update the memd section in place"];
    lines.splice(range[0], range[1] - range[0] + 1, ...section);
  } else {
    appendBlock(lines, section);
    summary = [before === null ? "create with the memd section" : "append the memd section"];
  }
  const after = summary.length === 0 ? before : joinLines(text);
  return { target: "agents-md", path: file, before, after, summary, backup: false, mode: 0o644 };
}

/**
 * Uninstall: the memd section and the blank line setup put before it removed. A file that held
 * nothing else is removed too, since setup created it.
 */
export function planAgentsMdRemoval(file: string, before: string | null): FileChange {
  const text = splitLines(before ?? "");
  const lines = text.lines;
  const range = sectionRange(file, lines);
  if (!range) return { target: "agents-md", path: file, before, after: before, summary: [], backup: false, mode: 0o644 };
  removeBlock(lines, range[0], range[1]);
  const empty = lines.every((line) => line.trim() === "");
  return {
    target: "agents-md",
    path: file,
    before,
    after: empty ? null : joinLines(text),
    summary: [empty ? "remove the memd section and the file (it held nothing else)" : "remove the memd section"],
    backup: false,
    mode: 0o644,
  };
}
