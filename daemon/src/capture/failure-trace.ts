import { redact } from "../redact/redact-secrets.js";

/** The tag of every failure trace, saved by a hook or found by the sweep. */
export const SHELL_FAILURE_TAG = "shell-failure";

/** Lines of the error kept in a trace: enough to recognise the failure, not the whole log. */
const MAX_ERROR_LINES = 8;
const MAX_TRACE_CHARS = 1500;
const ERROR_LINE = /\b(error|fail(ed|ure)?|fatal|exception|not found|denied|refused|cannot|unable|panic)\b|[×✗✖]|^\s*E[A-Z]{3,}/i;
/** The message of a thrown error ("AssertionError: ...", "TypeError: ..."): the most telling line. */
const THROWN_LINE = /\b\w*(Error|Exception)\b:|^\s*error(\[\w+\])?:|^\s*fatal:/i;
/** Lines that are only rules and box drawing, as test runners print between sections. */
const DECORATION = /^[\s\u2500-\u259f\u23af\-=_*#.~]*(\[?\d+\/\d+\]?)?[\s\u2500-\u259f\u23af\-=_*#.~]*$/;

/**
 * The trace saved for a failed Bash command: the command, the exit line, then the lines that
 * look like errors (or, if none do, the first lines). Returns null for an interrupted run.
 */
export function failureTrace(command: string, error: string, interrupted: boolean): string | null {
  if (interrupted || command.trim() === "") return null;
  const lines = error.split(/\r?\n/).map((line) => line.trimEnd()).filter((line) => !DECORATION.test(line));
  const [first = "", ...rest] = lines;
  const picked = pickErrorLines(rest);
  const text = [`Command failed: ${command.trim()}`, first, ...picked].filter((line) => line !== "").join("\n");
  return text.length <= MAX_TRACE_CHARS ? text : `${text.slice(0, MAX_TRACE_CHARS - 1)}…`;
}

/**
 * The trace of a failed shell command and the program it ran (its concept), from the command and
 * what it printed after its exit line; null for an interrupted run. A failing command is where
 * credentials appear (`curl -u admin:...`): the trace is cut to length, and a cut secret may no
 * longer be recognisable, so both are redacted first.
 */
export function shellFailureTrace(command: string, output: string, interrupted: boolean): { trace: string; program: string } | null {
  const redacted = redact(command);
  const trace = failureTrace(redacted, redact(output), interrupted);
  return trace === null ? null : { trace, program: commandProgram(redacted) };
}

/** The program a command runs ("pnpm test src" -> "pnpm"), as a concept to find traces by. */
export function commandProgram(command: string): string {
  const words = command.trim().split(/\s+/).filter((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word) && word !== "sudo");
  return (words[0] ?? "").split("/").at(-1) ?? "";
}

/** Thrown-error messages first, then other error-looking lines, then (if none) the first lines; in their original order. */
function pickErrorLines(lines: readonly string[]): string[] {
  const chosen = new Set<number>();
  const add = (test: (line: string) => boolean) => {
    lines.forEach((line, index) => {
      if (chosen.size < MAX_ERROR_LINES && test(line) && !lines.slice(0, index).some((l, i) => chosen.has(i) && l.trim() === line.trim())) chosen.add(index);
    });
  };
  add((line) => THROWN_LINE.test(line));
  add((line) => ERROR_LINE.test(line));
  if (chosen.size === 0) add(() => true);
  return [...chosen].sort((a, b) => a - b).map((index) => lines[index] as string);
}
