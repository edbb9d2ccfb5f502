import { type CommandLineForm, COMMAND_LINE_FORMS } from "./command-line-forms.js";
import { isPlaceholder } from "./placeholder.js";
import type { SecretFinding } from "./secret-types.js";
import { readSecretValue } from "./secret-value.js";
import { escapeRegExp } from "../escape-reg-exp.js";

/**
 * Passwords given on a command line in the forms of COMMAND_LINE_FORMS: `mysql -pX`,
 * `curl -u admin:X`, `sshpass -p X`, `docker login -p X`, `htpasswd -b file user X`. Only the
 * password goes; program, options, user and host stay, since they are what a memory about the
 * command is found by.
 *
 * One pass over the words of the text. A word that names a known program opens its command,
 * which runs to the end of the line (a real one or a JSON-escaped `\n`) or to `;`, `|` or `&`;
 * a later program on the same line (`sudo mysql`, `sshpass -p X ssh`) takes over. Inside a
 * command each option is looked up among its program's forms.
 */
export function findCommandLineCredentials(text: string): SecretFinding[] {
  const first = PROGRAM_MENTION.exec(text);
  if (first === null) return [];
  const findings: SecretFinding[] = [];
  const take = (from: number, form: CommandLineForm, spaced: boolean) => {
    const finding = secretAt(text, from, form, spaced);
    if (finding !== undefined) findings.push(finding);
    return finding;
  };
  let command: Command | undefined;
  const close = () => {
    if (command?.last !== undefined && command.lastWord !== undefined && command.afterTrigger >= (command.last.minArguments ?? 1)) {
      take(command.lastWord, command.last, false);
    }
    command = undefined;
  };
  const word = /(?:[^\s\\]|\\(?![nrt])\S?)+|\\[nrt]/g;
  word.lastIndex = text.lastIndexOf(" ", first.index) + 1;
  let previousEnd = word.lastIndex;
  let skipUntil = 0;
  for (let match = word.exec(text); match !== null; match = word.exec(text)) {
    if (hasLineBreak(text, previousEnd, match.index) || /^\\[nr]$/.test(match[0])) close();
    previousEnd = match.index + match[0].length;
    if (/^\\[nrt]$/.test(match[0])) continue;
    // `a;b`, `a|b`, `a&&b` hold several commands; `2>&1` is a redirection, not one of them.
    const separators = /(?<![<>])[;|&]+/g;
    let partStart = 0;
    for (let sep = separators.exec(match[0]); ; sep = separators.exec(match[0])) {
      const partEnd = sep === null ? match[0].length : sep.index;
      const at = match.index + partStart;
      if (partEnd > partStart && at >= skipUntil) {
        const part = match[0].slice(partStart, partEnd);
        const opened = command;
        const taken = visit(part, at);
        if (taken !== undefined) skipUntil = taken.end;
        // `got "htpasswd -b f admin pw": give...`, `"command":"mysql -pX","description"`: the
        // quote the command opened with ends it.
        if (command !== undefined && command === opened && command.quote !== undefined && part.includes(command.quote)) close();
      }
      if (sep === null) break;
      close();
      partStart = sep.index + sep[0].length;
    }
  }
  close();
  return findings;

  function visit(part: string, at: number): SecretFinding | undefined {
    const nameAt = programNameStart(part);
    const program = PROGRAMS.get(part.slice(nameAt).replace(/\.exe$/i, "").toLowerCase());
    if (command?.pendingOption !== undefined) {
      const form = command.pendingOption;
      command.pendingOption = undefined;
      if (!part.startsWith("-")) return take(at, form, true);
    }
    // Inside a command a path is an argument (`htpasswd -b /etc/nginx/htpasswd ...`); only a
    // bare name starts another program there (`sshpass -p X ssh`).
    if (program !== undefined && !part.startsWith("-") && (command === undefined || !/[/\\]/.test(part))) {
      close();
      const quote = part[nameAt - 1];
      command = { forms: program, subcommands: new Set(), afterTrigger: 0, quote: quote !== undefined && QUOTES.includes(quote) ? quote : undefined };
      command.pendingArgument = program.find((f) => f.argument === "next" && f.subcommand === undefined && f.option === undefined);
      return undefined;
    }
    if (command === undefined) return undefined;
    if (part.startsWith("-") || part.startsWith("/")) {
      const known = option(command, part, at);
      if (known !== UNKNOWN) return known;
      if (part.startsWith("-")) return undefined;
    }
    // `> out.txt`: the redirection and its target are not arguments.
    if (/^\d*[<>]/.test(part)) {
      command.skipArgument = /^\d*[<>]+&?$/.test(part);
      return undefined;
    }
    if (command.skipArgument === true) {
      command.skipArgument = false;
      return undefined;
    }
    return argument(command, part, at);
  }

  /** Handles an option of the open command: what it took, or UNKNOWN when none of its forms knows it. */
  function option(cmd: Command, part: string, at: number): SecretFinding | undefined | typeof UNKNOWN {
    for (const form of cmd.forms) {
      const name = form.option;
      if (name === undefined || (form.subcommand !== undefined && !cmd.subcommands.has(form.subcommand))) continue;
      const attach = form.attach ?? [];
      if (form.argument !== undefined && (part === name || (form.inCluster === true && isCluster(part, name)))) {
        trigger(cmd, form);
        return undefined;
      }
      if (part === name && attach.includes("spaced")) {
        cmd.pendingOption = form;
        return undefined;
      }
      const glued = attach.includes("glued") && name.length === 2 && part.length > 2 && part.startsWith(name);
      const joined = (attach.includes("equals") && part.startsWith(`${name}=`)) || (attach.includes("colon") && part.startsWith(`${name}:`));
      if (glued || joined) return take(at + name.length + (joined ? 1 : 0), form, false);
    }
    return UNKNOWN;
  }

  function argument(cmd: Command, part: string, at: number): SecretFinding | undefined {
    if (cmd.pendingArgument !== undefined) {
      const form = cmd.pendingArgument;
      cmd.pendingArgument = undefined;
      // `vault login -method=userpass username=maya password=x`: pairs are the assignment rule's.
      if (!part.includes("=")) return take(at, form, false);
    }
    if (cmd.last !== undefined) {
      cmd.afterTrigger += 1;
      cmd.lastWord = at;
    }
    if (cmd.subcommands.size < MAX_SUBCOMMANDS) cmd.subcommands.add(part);
    for (const form of cmd.forms) {
      if (form.subcommand === part && form.option === undefined) trigger(cmd, form);
    }
    return undefined;
  }
}

/** What is known about the command being read. */
interface Command {
  forms: readonly CommandLineForm[];
  /** Arguments seen so far, which `subcommand` forms look for. */
  subcommands: Set<string>;
  /** An option whose value is the next word (`sshpass -p X`). */
  pendingOption?: CommandLineForm;
  /** A form whose secret is the next argument (`vault login X`). */
  pendingArgument?: CommandLineForm;
  /** A form whose secret is the command's last argument, and that argument once seen. */
  last?: CommandLineForm;
  lastWord?: number;
  afterTrigger: number;
  /** The next word is a redirection's target. */
  skipArgument?: boolean;
  /** The quote just before the program's name, which ends the command where it closes. */
  quote?: string;
}

const QUOTES = `"'\``;

const UNKNOWN = Symbol("unknown option");

// Subcommands sit near the program; a cap keeps one endless command line from filling a set.
const MAX_SUBCOMMANDS = 16;

function trigger(cmd: Command, form: CommandLineForm): void {
  if (form.argument === "next") {
    cmd.pendingArgument = form;
  } else {
    cmd.last = form;
    cmd.lastWord = undefined;
    cmd.afterTrigger = 0;
  }
}

/** `-bc` holds `-b`. */
function isCluster(part: string, option: string): boolean {
  return option.length === 2 && /^-[A-Za-z]{2,8}$/.test(part) && part.includes(option.slice(1));
}

/** The secret of the value that starts at `from`, per the form's `secret` part; none for a placeholder. */
function secretAt(text: string, from: number, form: CommandLineForm, spaced: boolean): SecretFinding | undefined {
  const value = readSecretValue(text, from, "command-line");
  if (value === undefined) return undefined;
  const raw = text.slice(value.start, value.end);
  // `mongosh -p --quiet`: the option prompts, and the next flag follows.
  if (spaced && !value.quoted && raw.startsWith("-")) return undefined;
  let start = 0;
  let end = raw.length;
  const part = form.secret;
  if (part !== undefined) {
    const at = part.atStart === true ? (raw.startsWith(part.after) ? 0 : -1) : raw.indexOf(part.after);
    if (at < 0) return undefined;
    start = at + part.after.length;
    const before = part.before === undefined ? -1 : raw.lastIndexOf(part.before);
    if (before >= start) end = before;
  }
  const secret = raw.slice(start, end);
  if (secret === "" || isPlaceholder(secret)) return undefined;
  return { type: "command-line-credential", start: value.start + start, end: value.start + end };
}

function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) if (text[i] === "\n" || text[i] === "\r") return true;
  return false;
}

/** Where a program's name starts in a word: `/usr/bin/mysql`, `"command":"sshpass`, `C:\tools\PsExec.exe`. */
function programNameStart(word: string): number {
  let start = word.length;
  while (start > 0 && !`/\\"'\`(:=`.includes(word[start - 1] as string)) start -= 1;
  return start;
}

const PROGRAMS = new Map<string, CommandLineForm[]>();
for (const form of COMMAND_LINE_FORMS) {
  for (const program of form.programs) PROGRAMS.set(program, [...(PROGRAMS.get(program) ?? []), form]);
}

// Most texts name none of the programs: they are passed over without being split into words.
const PROGRAM_MENTION = new RegExp(
  `(?<![A-Za-z0-9_-])(?:${[...PROGRAMS.keys()].map((p) => escapeRegExp(p)).join("|")})(?![A-Za-z0-9_-])`,
  "i",
);
