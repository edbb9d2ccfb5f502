/**
 * `memctl slash [action]`: what the /memd command of Claude Code and the memd prompt of Codex
 * run, one word to one memctl command, so that the command file needs a single allowed command.
 */
const ACTIONS: Readonly<Record<string, readonly string[]>> = {
  load: ["brief", "--via", "/memd load"],
  stats: ["stats"],
  clean: ["clean"],
  compact: ["consolidate"],
  health: ["health"],
  start: ["start"],
};

export const SLASH_ACTIONS = Object.keys(ACTIONS);

/** The memctl arguments a /memd action stands for ("load" when none is given), or null for a word it does not know. */
export function slashCommandArgs(words: readonly string[]): string[] | null {
  const [action = "load", ...rest] = words.join(" ").trim().split(/\s+/).filter(Boolean);
  const mapped = ACTIONS[action.toLowerCase()];
  return mapped === undefined || rest.length > 0 ? null : [...mapped];
}
