/**
 * A text file as lines, for the editors that change one block of a file the user owns (the
 * AGENTS.md section, Codex's [mcp_servers.memd]) and keep every other byte.
 */
export interface TextLines {
  lines: string[];
  /** The file's line ending: "\r\n" when it uses any, so that added lines match the file. */
  eol: string;
}

export function splitLines(text: string): TextLines {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text === "" ? [] : text.split(eol);
  // A final newline leaves an empty last element; it is not a line of the file.
  if (lines.at(-1) === "") lines.pop();
  return { lines, eol };
}

export function joinLines({ lines, eol }: TextLines): string {
  return lines.length === 0 ? "" : `${lines.join(eol)}${eol}`;
}

function isBlank(lines: readonly string[], i: number): boolean {
  return i >= 0 && i < lines.length && (lines[i] as string).trim() === "";
}

/** Appends a block after one blank line (none in an empty file), as setup adds its own text. */
export function appendBlock(lines: string[], block: readonly string[]): void {
  if (lines.length > 0 && !isBlank(lines, lines.length - 1)) lines.push("");
  lines.push(...block);
}

/**
 * Removes lines start..end (inclusive) and the blank line appendBlock put before them, so that
 * uninstall gives back the text as it was: a blank line is dropped only when it would otherwise
 * be doubled, trail the file or open it.
 */
export function removeBlock(lines: string[], start: number, end: number): void {
  lines.splice(start, end - start + 1);
  if (isBlank(lines, start - 1) && (start >= lines.length || isBlank(lines, start))) lines.splice(start - 1, 1);
  else if (start === 0 && isBlank(lines, 0)) lines.splice(0, 1);
}
